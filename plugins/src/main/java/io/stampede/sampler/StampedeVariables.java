/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sampler;

import io.stampede.engine.Engine;
import io.stampede.names.PluginNames;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.apache.jmeter.util.JMeterUtils;

import java.util.Arrays;
import java.util.List;

/**
 * The JMeter variables a Stampede sample sets on its own thread, so that {@code sample_variables} can put them into
 * the JTL. Only the ones named in {@code sample_variables} are set: formatting numbers per sample costs throughput,
 * and nothing else reads them. One per sampler clone when some are wanted (JMeter's HTTP Request: one per Java thread).
 */
public final class StampedeVariables {

    private static final StampedeVariables NONE = new StampedeVariables(List.of());

    private final boolean open;
    private final boolean elapsed;
    private final boolean corrected;
    private final boolean protocol;
    private int lastOpen = -1;
    private String lastOpenText;

    private StampedeVariables(List<String> wanted) {
        open = wanted.contains(PluginNames.OPEN_CONNECTIONS_VARIABLE);
        elapsed = wanted.contains(PluginNames.ELAPSED_US_VARIABLE);
        corrected = wanted.contains(PluginNames.CORRECTED_US_VARIABLE);
        protocol = wanted.contains(PluginNames.PROTOCOL_VARIABLE);
    }

    /**
     * The variables {@code sample_variables} asks for; when it names none, one instance for every sampler clone
     * (it then never changes: {@link #put} returns at once), so a user's clones carry none of their own.
     */
    public static StampedeVariables fromJMeterProperties() {
        String list = JMeterUtils.getJMeterProperties() == null ? ""
                : JMeterUtils.getJMeterProperties().getProperty("sample_variables", "");
        StampedeVariables wanted = new StampedeVariables(Arrays.stream(list.split(",")).map(String::trim).toList());
        return wanted.any() ? wanted : NONE;
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
            vars.put(PluginNames.OPEN_CONNECTIONS_VARIABLE, lastOpenText);
        }
        if (elapsed) {
            vars.put(PluginNames.ELAPSED_US_VARIABLE, Long.toString(Math.max(0, elapsedNanos) / 1000));
        }
        if (corrected) {
            vars.put(PluginNames.CORRECTED_US_VARIABLE, Long.toString(Math.max(0, correctedNanos) / 1000));
        }
        if (protocol) {
            vars.put(PluginNames.PROTOCOL_VARIABLE, spoke);
        }
    }
}
