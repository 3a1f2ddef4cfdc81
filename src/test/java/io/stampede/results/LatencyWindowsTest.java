/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class LatencyWindowsTest {

    private static final long T0 = 1_795_397_082_000L;

    private static Sample sample(long offsetMs, long elapsedMs, boolean ok) {
        return new Sample(T0 + offsetMs, elapsedMs, "GET", ok ? "200" : "Non HTTP response code: x", "", ok, 1);
    }

    private static Sample micros(long offsetMs, long us) {
        return new Sample(T0 + offsetMs, us / 1000, "GET", "200", "OK", true, 1, 10, us, us);
    }

    @Test
    void aStallInOneWindowShowsThereAndNotInTheOthers() {
        LatencyWindows w = new LatencyWindows(30_000);
        // 0-30 s: 100 samples of 2 ms; 30-60 s: 99 of 3 ms and one of 42 s (with an error); 60-75 s: 30 of 1 ms
        for (int i = 0; i < 100; i++) {
            w.add(sample(i * 300L, 2, true));
        }
        for (int i = 0; i < 99; i++) {
            w.add(sample(30_000 + i * 300L, 3, true));
        }
        w.add(sample(59_999, 42_000, false));
        for (int i = 0; i < 30; i++) {
            w.add(sample(60_000 + i * 500L, 1, true));
        }
        List<LatencyWindows.Window> rows = w.windows();
        assertEquals(3, rows.size());
        // two significant digits: within 1 %
        LatencyWindows.Window first = rows.get(0);
        assertEquals(List.of(0L, 30_000L, 100L, 0L), List.of(first.fromMs(), first.toMs(), first.samples(), first.errors()));
        assertEquals(2000, first.p50Us(), 20);
        assertEquals(2000, first.maxUs(), 20);
        LatencyWindows.Window stall = rows.get(1);
        assertEquals(100, stall.samples());
        assertEquals(1, stall.errors());
        assertEquals(3000, stall.p50Us(), 30);
        assertEquals(3000, stall.p99Us(), 30);
        assertEquals(42_000_000, stall.maxUs(), 420_000);
        // the last window ends at the last start, rounded up to a second: 60-75 s
        assertEquals(60_000, rows.get(2).fromMs());
        assertEquals(75_000, rows.get(2).toMs());
        assertEquals(2.0, rows.get(2).requestsPerSecond(), 1e-9);
        assertEquals(100 / 30.0, rows.get(0).requestsPerSecond(), 1e-9);
    }

    @Test
    void theSteadyStateMergesOnlyTheWholeWindowsInsideIt() {
        LatencyWindows w = new LatencyWindows(10_000);
        for (int s = 0; s < 50; s++) {           // 50 s, one sample every 100 ms
            for (int i = 0; i < 10; i++) {
                long us = s < 10 ? 900_000 : 1_500; // ramp-up: 0.9 s; afterwards 1.5 ms
                w.add(micros(s * 1000L + i * 100L, us));
            }
        }
        LatencyWindows.Window steady = w.steady(10_000, 45_000).orElseThrow();
        assertEquals(10_000, steady.fromMs());
        assertEquals(40_000, steady.toMs());        // 40-50 s is not wholly inside [10 s, 45 s)
        assertEquals(300, steady.samples());
        assertEquals(1_500, steady.p99Us(), 15);
        assertEquals(10.0, steady.requestsPerSecond(), 1e-9);
        assertTrue(w.steady(12_000, 20_000).isEmpty());
        assertEquals("  steady     10-50 s: 10 req/s  p50 1.5 ms  p95 1.5 ms  p99 1.5 ms  max 1.5 ms  errors 0"
                + "  (worst window p99 1.5 ms)", w.steadyLine(10_000));
        assertEquals("  steady     none: no whole 10-s window starts 45 s or more after the first sample; run longer",
                w.steadyLine(45_000));
    }

    @Test
    void theWorstSteadyWindowIsNamedBesideTheMergedFigure() {
        LatencyWindows w = new LatencyWindows(10_000);
        for (int s = 0; s < 40; s++) {
            for (int i = 0; i < 100; i++) {
                // 20-30 s: 3 of every 100 samples take 2.5 s; the other windows stay at 1 ms
                long us = s >= 20 && s < 30 && i < 3 ? 2_500_000 : 1_000;
                w.add(micros(s * 1000L + i * 10L, us));
            }
        }
        String line = w.steadyLine(10_000);
        // merged, the 30 slow samples are 1 % of 3,000: the merged p99 hides them, the worst window does not
        assertTrue(line.startsWith("  steady     10-40 s: 100 req/s  p50 1.0 ms  p95 1.0 ms  p99 1.0 ms  max 2507 ms"),
                line);
        assertTrue(line.endsWith("(worst window p99 2507 ms)"), line);
    }

    @Test
    void samplesStartedBeforeTheFirstOneReadCountInTheFirstWindow() {
        LatencyWindows w = new LatencyWindows(30_000);
        w.add(sample(1_000, 5, true));
        w.add(sample(200, 5, false)); // a batch from another engine arrives late
        w.add(sample(31_000, 5, true));
        assertEquals(List.of(0L, 30_000L), w.windows().stream().map(LatencyWindows.Window::fromMs).toList());
        assertEquals(List.of(2L, 1L), w.windows().stream().map(LatencyWindows.Window::samples).toList());
        assertEquals(1, w.windows().get(0).errors());
        List<String> table = w.lines();
        assertTrue(table.stream().noneMatch(line -> line.trim().startsWith("-")), String.join("\n", table));
        assertTrue(table.get(2).trim().startsWith("0-30 s"), table.get(2));
    }

    @Test
    void tableRowsAndDurations() {
        assertEquals("850 us", LatencyWindows.duration(850));
        assertEquals("6.0 ms", LatencyWindows.duration(6_000));
        assertEquals("221 ms", LatencyWindows.duration(221_000));
        assertEquals("2221 ms", LatencyWindows.duration(2_221_000));
        assertEquals("42.7 s", LatencyWindows.duration(42_700_000));
        LatencyWindows w = new LatencyWindows(30_000);
        w.add(sample(0, 1, true));
        List<String> lines = w.lines();
        assertEquals("  per 30-s window (by start time; latency of every sample):", lines.get(0));
        assertTrue(lines.get(2).startsWith("    0-1 s"), lines.get(2));
        assertThrows(IllegalArgumentException.class, () -> new LatencyWindows(999));
    }
}
