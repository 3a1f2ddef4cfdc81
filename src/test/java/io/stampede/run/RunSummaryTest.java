/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.names.PluginNames;
import io.stampede.results.RunStatistics;
import io.stampede.results.Sample;
import java.util.List;
import org.junit.jupiter.api.Test;

class RunSummaryTest {

    @Test
    void peakIsTheMostThreadsAndConnectionsAtOnceNotTheLastSamplesFigures() {
        RunStatistics stats = new RunStatistics();
        int[] threads = {3, 250, 1000, 998, 40, 1};
        int[] connections = {3, 250, 990, 1000, 1000, 12};
        for (int i = 0; i < threads.length; i++) {
            stats.add(new Sample(1000 + i, 2, "GET", "200", "OK", true, threads[i], connections[i], 2000, -1));
        }
        List<String> lines = RunSummary.lines(stats);
        assertTrue(lines.contains("  peak       1,000 active threads, 1,000 open connections"), String.join("\n", lines));
        assertEquals(1, stats.activeThreads(), "progress still shows the latest count");
    }

    @Test
    void stockSamplersGiveThreadsOnlyAndSaySo() {
        RunStatistics stats = new RunStatistics();
        stats.add(new Sample(1000, 2, "GET", "200", "OK", true, 7));
        stats.add(new Sample(1001, 2, "GET", "200", "OK", true, 5));
        List<String> lines = RunSummary.lines(stats);
        assertTrue(lines.contains("  peak       7 active threads  (open connections: only Stampede's samplers report"
                + " them)"), String.join("\n", lines));
    }

    @Test
    void anAlpnFallbackIsNoErrorAndTheProtocolsAreCounted() {
        RunStatistics stats = new RunStatistics();
        for (int i = 0; i < 30; i++) {
            stats.add(new Sample(1000 + i, 2, "GET", "200", "OK", true, 2, 2, 2000, 2000, "h2"));
        }
        for (int i = 0; i < 20; i++) {
            stats.add(new Sample(1000 + i, 2, "GET", "200", "OK", true, 2, 2, 2000, 2000,
                    PluginNames.ALPN_FALLBACK));
        }
        List<String> lines = RunSummary.lines(stats);
        String all = String.join("\n", lines);
        assertTrue(lines.contains("  errors     0 (0.000%)"), all);
        assertTrue(lines.contains("  protocol   h2 30, http/1.1 (ALPN fallback) 20"), all);
    }

    @Test
    void plainHttp11RunsGetNoProtocolLine() {
        RunStatistics stats = new RunStatistics();
        stats.add(new Sample(1000, 2, "GET", "200", "OK", true, 1, 1, 2000, 2000, "http/1.1"));
        assertFalse(String.join("\n", RunSummary.lines(stats)).contains("protocol"));
    }
}
