/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sampler;

import io.stampede.names.PluginNames;
import org.apache.jmeter.util.JMeterUtils;

import java.util.Locale;
import java.util.Properties;

/**
 * Which threads do the I/O of the connections a JMeter thread keeps busy (connections per thread, pacing, target rate,
 * pipelining): a JMeter property, {@value PluginNames#IO_MODE}, for the whole test. In the classic mode (one connection per
 * thread) anything but ENGINE lets the thread write and read its plain-TCP connection itself with blocking calls
 * (its request is the only one in flight, so nothing waits to be read while it is away); TLS stays on the loops.
 */
enum IoMode {
    /**
     * THREAD when the thread keeps at least {@link #AUTO_THREAD_MIN} requests in flight, else ENGINE: a loop of its
     * own costs a thread three file descriptors and about 50 KB of native memory, which only pays off when many
     * requests share it (a thousand threads with a few connections each would spend thousands of descriptors).
     */
    AUTO("auto"),
    /**
     * The JMeter thread itself, on an event loop of its own that it runs while it waits in the sampler: no hand-off
     * between threads per request, the fastest. Responses are read only while the thread is in the sampler.
     */
    THREAD("thread"),
    /**
     * The engine's shared event loops, handing each response to the JMeter thread: response times stay exact even
     * when a timer or another sampler keeps the thread away from this sampler.
     */
    ENGINE("engine");

    static final int AUTO_THREAD_MIN = 32;

    private final String value;

    IoMode(String value) {
        this.value = value;
    }

    String value() {
        return value;
    }

    /** THREAD or ENGINE for a thread keeping {@code inFlight} requests on the wire (connections × depth). */
    IoMode resolve(int inFlight) {
        if (this != AUTO) {
            return this;
        }
        return inFlight >= AUTO_THREAD_MIN ? THREAD : ENGINE;
    }

    /** The mode set with -Jstampede.io_mode, AUTO when unset. */
    static IoMode fromJMeterProperties() {
        Properties p = JMeterUtils.getJMeterProperties();
        return parse(p == null ? null : p.getProperty(PluginNames.IO_MODE));
    }

    static IoMode parse(String text) {
        String v = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        if (v.isEmpty()) {
            return AUTO;
        }
        for (IoMode m : values()) {
            if (m.value.equals(v)) {
                return m;
            }
        }
        throw new IllegalArgumentException(PluginNames.IO_MODE + ": '" + text.trim() + "' is not an I/O mode; set "
                + THREAD.value + " (each JMeter thread reads its own connections), " + ENGINE.value
                + " (the engine's threads read them, exact times even with timers in the thread) or " + AUTO.value
                + " (the default: " + THREAD.value + " from " + AUTO_THREAD_MIN + " requests in flight per thread,"
                + " connections x pipelining depth)");
    }
}
