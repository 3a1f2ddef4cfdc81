/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.distributed;

/**
 * The Java serialization filter of a distributed run's controller ({@code jdk.serialFilter}): its result listener
 * reads whatever reaches it, so it reads only the classes results, RMI and JMeter's remote calls are made of,
 * with limits on nesting, array lengths, object count and the size of one call (a batch of results).
 *
 * <p>Allowed: Stampede's result form ({@link io.stampede.remote}, the plugin's), JMeter's classes (results,
 * variables, assertion results) and those of the jmeter-plugins thread groups, the JDK's collections, boxed
 * values, URLs and exceptions, and RMI's own with its stubs (dynamic proxies). Anything else, Groovy and commons-collections in JMeter's lib among
 * them, is refused: the call fails with an exception and the run continues.
 */
public final class ResultStreamFilter {
    /** Deeper than any result tree the sender carries (16 levels) with its event, list and map around it. */
    static final int MAX_DEPTH = 64;
    /** One array: far above a batch (2,000 results) or a response an engine keeps on error. */
    static final int MAX_ARRAY = 64 * 1024 * 1024;
    /** Objects in one call. */
    static final int MAX_REFS = 10_000_000;
    /** Bytes of one call. */
    static final long MAX_BYTES = 256L * 1024 * 1024;

    static final String PATTERN = "maxdepth=" + MAX_DEPTH + ";maxarray=" + MAX_ARRAY + ";maxrefs=" + MAX_REFS
            + ";maxbytes=" + MAX_BYTES
            + ";io.stampede.**;org.apache.jmeter.**;kg.apc.**"
            + ";java.lang.*;java.util.**;java.net.*;java.io.*;java.time.*;java.math.*;java.rmi.**;sun.rmi.**"
            // RMI stubs (the engines' registry lookups return them) are dynamic proxies of JMeter's interfaces
            + ";java.lang.reflect.Proxy;jdk.proxy*;com.sun.proxy.*;!*";

    private ResultStreamFilter() {}

    /** The controller JVM's option. */
    public static String jvmOption() {
        return "-Djdk.serialFilter=" + PATTERN;
    }
}
