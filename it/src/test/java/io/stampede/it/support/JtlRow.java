/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.support;

import java.util.List;
import java.util.Map;

/** One JTL sample; typed getters for the columns tests look at, {@link #get(String)} for the rest. */
public final class JtlRow {

    private final Map<String, Integer> index;
    private final List<String> values;

    JtlRow(Map<String, Integer> index, List<String> values) {
        this.index = index;
        this.values = values;
    }

    public String get(String column) {
        Integer i = index.get(column);
        if (i == null) {
            throw new IllegalArgumentException("the JTL has no column " + column + "; it has " + index.keySet());
        }
        return i < values.size() ? values.get(i) : "";
    }

    public long getLong(String column) {
        String value = get(column);
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalStateException("JTL column " + column + " is not a number: '" + value + "' in " + this, e);
        }
    }

    public long timeStamp() {
        return getLong("timeStamp");
    }

    public long elapsed() {
        return getLong("elapsed");
    }

    public String label() {
        return get("label");
    }

    public String responseCode() {
        return get("responseCode");
    }

    public String responseMessage() {
        return get("responseMessage");
    }

    public String threadName() {
        return get("threadName");
    }

    public boolean success() {
        return Boolean.parseBoolean(get("success"));
    }

    public long bytes() {
        return getLong("bytes");
    }

    public long sentBytes() {
        return getLong("sentBytes");
    }

    public long latency() {
        return getLong("Latency");
    }

    public long connect() {
        return getLong("Connect");
    }

    public String url() {
        return get("URL");
    }

    @Override
    public String toString() {
        return String.join(",", values);
    }
}
