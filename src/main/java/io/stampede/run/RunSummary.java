/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.run;

import io.stampede.results.ErrorKind;
import io.stampede.results.RunStatistics;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The end-of-run summary: throughput, latency percentiles, errors grouped by kind, and the protocols spoken when
 * HTTP/2 was in play.
 */
public final class RunSummary {

    private static final String HTTP_1_1 = "http/1.1";

    private RunSummary() {}

    public static List<String> lines(RunStatistics s) {
        List<String> out = new ArrayList<>();
        out.add(String.format(Locale.ROOT, "  samples    %,d in %.1f s = %,.0f req/s", s.samples(), s.spanMs() / 1000.0,
                s.requestsPerSecond()));
        out.add(String.format(Locale.ROOT, "  latency    p50 %d ms  p95 %d ms  p99 %d ms  max %d ms  (mean %.2f ms)",
                s.percentileMs(50), s.percentileMs(95), s.percentileMs(99), s.maxMs(), s.meanMs()));
        out.add(String.format(Locale.ROOT, "  errors     %,d (%.3f%%)", s.errors(), 100 * s.errorRate()));
        out.add(String.format(Locale.ROOT, "  peak       %,d active threads", s.peakActiveThreads())
                + (s.peakOpenConnections() < 0 ? "  (open connections: only Stampede's samplers report them)"
                        : String.format(Locale.ROOT, ", %,d open connections", s.peakOpenConnections())));
        if (s.errors() > 0) {
            s.errorsByKind().entrySet().stream()
                    .sorted(Map.Entry.<ErrorKind, Long>comparingByValue().reversed())
                    .forEach(e -> out.add(String.format(Locale.ROOT, "    %-52s %,d", e.getKey().label(), e.getValue())));
            out.add("  error messages (most frequent):");
            s.errorsByCode().entrySet().stream()
                    .sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder()))
                    .limit(5)
                    .forEach(e -> out.add(String.format(Locale.ROOT, "    %,9d  %s", e.getValue(), e.getKey())));
        }
        protocols(s.samplesByProtocol(), out);
        return out;
    }

    /**
     * Which protocols the samples spoke, when any spoke something else than HTTP/1.1. An ALPN fallback shows here as
     * its own protocol and in the diagnosis as a note (Http2Outcome), never as an error.
     */
    private static void protocols(Map<String, Long> byProtocol, List<String> out) {
        if (byProtocol.isEmpty() || byProtocol.keySet().equals(Set.of(HTTP_1_1))) {
            return;
        }
        out.add("  protocol   " + byProtocol.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder()))
                .map(e -> String.format(Locale.ROOT, "%s %,d", e.getKey(), e.getValue()))
                .collect(Collectors.joining(", ")));
    }
}
