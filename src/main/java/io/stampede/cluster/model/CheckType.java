/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.model;

/** The realserver health check: an HTTP GET with an expected status, or a bare TCP connect. */
public enum CheckType {
    HTTP, TCP;

    public static CheckType parse(String text) {
        for (CheckType t : values()) {
            if (t.toString().equals(text)) {
                return t;
            }
        }
        return null;
    }

    @Override
    public String toString() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
