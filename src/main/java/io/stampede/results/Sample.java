/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.results;

import java.util.List;

/**
 * The fields of one JTL row that summaries use. The Stampede columns are -1 (protocol: empty) when the JTL lacks
 * them (stock samplers leave them empty).
 */
public record Sample(long timeStamp, long elapsed, String label, String responseCode, String responseMessage,
                     boolean success, int allThreads, int openConnections, long elapsedUs, long correctedUs,
                     String protocol) {

    public Sample(long timeStamp, long elapsed, String label, String responseCode, String responseMessage,
                  boolean success, int allThreads, int openConnections, long elapsedUs, long correctedUs) {
        this(timeStamp, elapsed, label, responseCode, responseMessage, success, allThreads, openConnections, elapsedUs,
                correctedUs, "");
    }

    public Sample(long timeStamp, long elapsed, String label, String responseCode, String responseMessage,
                  boolean success, int allThreads) {
        this(timeStamp, elapsed, label, responseCode, responseMessage, success, allThreads, -1, -1, -1);
    }

    static Sample of(JtlHeader h, List<String> f) {
        return new Sample(
                parseLong(f, h.timeStamp()),
                parseLong(f, h.elapsed()),
                field(f, h.label()),
                field(f, h.responseCode()),
                field(f, h.responseMessage()),
                "true".equals(field(f, h.success())),
                (int) parseLong(f, h.allThreads()),
                (int) optionalLong(f, h.openConnections()),
                optionalLong(f, h.elapsedUs()),
                optionalLong(f, h.correctedUs()),
                protocol(field(f, h.protocol())));
    }

    /** Empty when absent: JMeter writes "null" for a sample variable no sampler of the thread set. */
    private static String protocol(String value) {
        return value.equals("null") ? "" : value;
    }

    /** -1 when absent: an empty field, or JMeter's "null" for a sample variable the sampler did not set. */
    private static long optionalLong(List<String> f, int i) {
        String s = field(f, i);
        if (s.isEmpty()) {
            return -1;
        }
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static String field(List<String> f, int i) {
        return i >= 0 && i < f.size() ? f.get(i) : "";
    }

    private static long parseLong(List<String> f, int i) {
        String s = field(f, i);
        if (s.isEmpty()) {
            return 0;
        }
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
