/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sampler;

import io.stampede.engine.Engine;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.apache.jmeter.util.JMeterUtils;

import java.util.Arrays;
import java.util.List;

/**
 * The JMeter variables a Stampede sample sets on its own thread, so that {@code sample_variables} can put them into
 * the JTL. Only the ones named in {@code sample_variables} are set: formatting numbers per sample costs throughput,
 * and nothing else reads them. One per sampler clone (JMeter's HTTP Request: one per Java thread).
 */
public final class StampedeVariables {
    /** Connections open in this JMeter engine (all Stampede samplers, all threads) when the sample completed. */
    static final String OPEN_CONNECTIONS = "stampede_open_connections";
    /** The sample's elapsed time in microseconds (JMeter's elapsed column has only milliseconds). */
    static final String ELAPSED_US = "stampede_elapsed_us";
    /**
     * Microseconds from the intended send time (pacing or target rate schedule) to the complete response: the
     * latency corrected for coordinated omission; equal to the elapsed time without a schedule.
     */
    static final String CORRECTED_US = "stampede_corrected_us";
    /**
     * The protocol the sample spoke: http/1.1, h2, h2c, or "http/1.1 (ALPN fallback)" when h2 was asked and the
     * server did not choose it in ALPN; empty when an h2/h2c request failed before its connection was negotiated.
     */
    public static final String PROTOCOL = "stampede_protocol";

    private final boolean open;
    private final boolean elapsed;
    private final boolean corrected;
    private final boolean protocol;
    private int lastOpen = -1;
    private String lastOpenText;

    private StampedeVariables(List<String> wanted) {
        open = wanted.contains(OPEN_CONNECTIONS);
        elapsed = wanted.contains(ELAPSED_US);
        corrected = wanted.contains(CORRECTED_US);
        protocol = wanted.contains(PROTOCOL);
    }

    public static StampedeVariables fromJMeterProperties() {
        String list = JMeterUtils.getJMeterProperties() == null ? ""
                : JMeterUtils.getJMeterProperties().getProperty("sample_variables", "");
        return new StampedeVariables(Arrays.stream(list.split(",")).map(String::trim).toList());
    }

    boolean any() {
        return open || elapsed || corrected || protocol;
    }

    /** Sets the wanted variables on the calling (sampling) thread; {@code spoke} is the sample's protocol. */
    public void put(long elapsedNanos, long correctedNanos, String spoke) {
        if (!any()) {
            return;
        }
        JMeterVariables vars = JMeterContextService.getContext().getVariables();
        if (vars == null) {
            return;
        }
        if (open) {
            int n = Engine.openConnections();
            if (n != lastOpen) {
                lastOpen = n;
                lastOpenText = Integer.toString(n);
            }
            vars.put(OPEN_CONNECTIONS, lastOpenText);
        }
        if (elapsed) {
            vars.put(ELAPSED_US, Long.toString(Math.max(0, elapsedNanos) / 1000));
        }
        if (corrected) {
            vars.put(CORRECTED_US, Long.toString(Math.max(0, correctedNanos) / 1000));
        }
        if (protocol) {
            vars.put(PROTOCOL, spoke);
        }
    }
}
