/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sampler;

import io.stampede.names.PluginNames;
import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * How a sampler clone drives its connections: how many per JMeter thread, the interval between two requests on one
 * exchange (0: send the next request as soon as the previous response is taken), how many requests each connection
 * has on the wire at once (pipelining depth; each is one exchange), the source addresses, and which threads do
 * the connections' I/O.
 * Read at a thread's first sample; immutable.
 */
record ScheduleSettings(int connections, long intervalNanos, int pipelineDepth, SourceAddresses sources,
                        IoMode ioMode) {

    /** The classic mode: one connection, one request per sample, no schedule, kernel-chosen source address. */
    boolean classic() {
        return connections == 1 && intervalNanos == 0 && pipelineDepth == 1 && sources.isEmpty();
    }

    /**
     * @param pacingMillis per-connection interval, 0 for none
     * @param targetRate requests/s for the whole clone (all its connections), 0 for none
     * @param depth pipelining depth, 1 for none
     */
    static ScheduleSettings of(int connections, long pacingMillis, double targetRate, int depth, boolean keepAlive,
                               SourceAddresses sources, IoMode ioMode) {
        if (depth > 1 && !keepAlive) {
            throw new IllegalArgumentException(PluginNames.PIPELINE_DEPTH + " " + depth + " needs keep-alive: a server closes a "
                    + "'Connection: close' connection after the first response; turn stampede.keep_alive on or set "
                    + "the depth to 1");
        }
        if (pacingMillis > 0 && targetRate > 0) {
            throw new IllegalArgumentException(PluginNames.PACING_MS + " and " + PluginNames.TARGET_RATE + " are both set; use one: pacing "
                    + "is the interval per connection, the target rate the requests/s of the thread");
        }
        long interval = pacingMillis * 1_000_000L;
        if (targetRate > 0) {
            // Each exchange sends every exchanges/rate seconds, so together they send rate per second.
            interval = Math.max(1, Math.round((double) connections * depth * 1e9 / targetRate));
        }
        return new ScheduleSettings(connections, interval, depth, sources, ioMode.resolve(connections * depth));
    }

    /** The source address of the n-th connection (round-robin), or null for the kernel's choice. */
    InetSocketAddress source(int n) {
        if (sources.isEmpty()) {
            return null;
        }
        InetAddress a = sources.addresses().get(Math.floorMod(n, sources.addresses().size()));
        return new InetSocketAddress(a, 0);
    }
}
