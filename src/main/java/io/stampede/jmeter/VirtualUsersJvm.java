/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.jmeter;

import java.util.ArrayList;
import java.util.List;

/**
 * The JVM options for a JMeter whose plan runs Stampede virtual users, where the bytes each user costs multiply by
 * 100,000 (issue 16's class histograms, it/bench/VIRTUAL-USERS-RESULTS.md).
 */
public final class VirtualUsersJvm {
    /**
     * log4j2 2.x's garbage-free logging off: with thread locals it keeps a reusable event, a date formatter and a
     * StringBuilder per thread that ever logged, with direct encoders a 2,048-char CharBuffer and an 8 KB ByteBuffer
     * per thread (ThreadLocal in the layout, whatever the first setting says). JMeterThread logs its start at INFO, so
     * every virtual user paid ~12.5 KB of heap for one log line.
     */
    public static final List<String> LOGGING = List.of("-Dlog4j2.enableThreadlocals=false",
            "-Dlog4j2.enableDirectEncoders=false");

    /**
     * 8-byte object headers (JEP 519, a product option since Java 25; experimental in 24): a user is ~570 small
     * objects (JMeter's cloned plan with its property maps), each 4 bytes smaller.
     */
    public static final String COMPACT_HEADERS = "-XX:+UseCompactObjectHeaders";

    /**
     * G1 shares one array between the strings of equal text that survive a few collections: every user holds the same
     * texts (variable names, the values of {@code ${__P(...)}} properties, the plan's constants) as strings of its
     * own. The strings stay distinct objects; only their bytes are shared.
     */
    public static final String STRING_DEDUPLICATION = "-XX:+UseStringDeduplication";

    private VirtualUsersJvm() {
    }

    /** The options for a JMeter running virtual users on {@code java}. */
    public static List<String> options(JavaRuntime java) {
        List<String> options = new ArrayList<>(LOGGING);
        options.add(STRING_DEDUPLICATION);
        if (java.feature() >= 25) {
            options.add(COMPACT_HEADERS);
        }
        return List.copyOf(options);
    }
}
