/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.results;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The JMeter variables Stampede's samplers set for {@code sample_variables} (names fixed by the plugin's
 * StampedeVariables), so that a run's JTL carries open connections, microsecond latencies and the protocol spoken.
 */
public final class StampedeColumns {
    /** Connections open in the JMeter engine when the sample completed. */
    public static final String OPEN_CONNECTIONS = "stampede_open_connections";
    /** Elapsed time in microseconds. */
    public static final String ELAPSED_US = "stampede_elapsed_us";
    /** Microseconds from the intended send time (pacing / target rate) to the response: corrected for CO. */
    public static final String CORRECTED_US = "stampede_corrected_us";
    /** The protocol a sample spoke: http/1.1, h2, h2c, or {@link #ALPN_FALLBACK}; empty if an HTTP/2 connect failed. */
    public static final String PROTOCOL = "stampede_protocol";
    /** The protocol column's value when h2 was asked and the server did not choose it in ALPN (the plugin's). */
    public static final String ALPN_FALLBACK = "http/1.1 (ALPN fallback)";

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
        names.addAll(List.of(OPEN_CONNECTIONS, ELAPSED_US, CORRECTED_US, PROTOCOL));
        return String.join(",", names);
    }
}
