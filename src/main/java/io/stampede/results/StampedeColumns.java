/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.results;

import io.stampede.names.PluginNames;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The JMeter variables Stampede's samplers set for {@code sample_variables} (named in the plugin's
 * {@link PluginNames}), so that a run's JTL carries open connections, microsecond latencies and the protocol spoken.
 */
public final class StampedeColumns {
    private StampedeColumns() {}

    /** {@code userValue} (a sample_variables list, or null) with Stampede's variables added after it. */
    public static String sampleVariables(String userValue) {
        Set<String> names = new LinkedHashSet<>();
        if (userValue != null) {
            for (String n : userValue.split(",")) {
                if (!n.isBlank()) {
                    names.add(n.trim());
                }
            }
        }
        names.addAll(List.of(PluginNames.OPEN_CONNECTIONS_VARIABLE, PluginNames.ELAPSED_US_VARIABLE,
                PluginNames.CORRECTED_US_VARIABLE, PluginNames.PROTOCOL_VARIABLE));
        return String.join(",", names);
    }
}
