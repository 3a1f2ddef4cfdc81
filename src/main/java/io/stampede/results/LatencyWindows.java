/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.results;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * Requests per second and latency percentiles per fixed window of a run (30 s by default), by each sample's start
 * time. Whole-run percentiles mix the ramp-up, stalls and the steady state into one figure; per window, a run that
 * fell seconds behind for a minute shows it, and the steady state can be read on its own.
 *
 * <p>Windows count from the first sample read. Rows of a distributed run arrive in batches per engine, so a sample
 * may start a little before that one: it is counted in the first window, which then holds a little more than its
 * length of samples, rather than in a window before the run's start.
 */
public final class LatencyWindows {

    /** One window's figures; latencies in µs (µs resolution where the sampler wrote stampede_elapsed_us). */
    public record Window(long fromMs, long toMs, long samples, long errors, long p50Us, long p95Us, long p99Us,
                         long maxUs) {
        public double requestsPerSecond() {
            return toMs > fromMs ? samples * 1000.0 / (toMs - fromMs) : 0;
        }
    }

    private static final class Bucket {
        final Histogram us = new Histogram(3_600_000_000L, 2);
        long errors;
        long lastStartMs;
    }

    private final long windowMs;
    private final Map<Long, Bucket> buckets = new TreeMap<>();
    private long origin = Long.MIN_VALUE;
    private long lastStart = Long.MIN_VALUE;

    public LatencyWindows(long windowMs) {
        if (windowMs < 1000) {
            throw new IllegalArgumentException("a latency window must be at least 1 s long, not " + windowMs + " ms");
        }
        this.windowMs = windowMs;
    }

    public void add(Sample s) {
        if (origin == Long.MIN_VALUE) {
            origin = s.timeStamp();
        }
        long offset = Math.max(0, s.timeStamp() - origin);
        Bucket b = buckets.computeIfAbsent(offset / windowMs, k -> new Bucket());
        long us = s.elapsedUs() >= 0 ? s.elapsedUs() : s.elapsed() * 1000;
        b.us.recordValue(Math.min(Math.max(us, 0), 3_600_000_000L));
        if (!s.success()) {
            b.errors++;
        }
        b.lastStartMs = Math.max(b.lastStartMs, offset);
        lastStart = Math.max(lastStart, offset);
    }

    /** Every window with samples, in time order; the last one ends at the last start read (at least 1 s long). */
    public List<Window> windows() {
        List<Window> out = new ArrayList<>();
        buckets.forEach((index, b) -> out.add(window(index * windowMs, Math.min((index + 1) * windowMs,
                Math.max(index * windowMs + 1000, roundUpToSecond(lastStart + 1))), b.us, b.us.getTotalCount(),
                b.errors)));
        return out;
    }

    /**
     * The windows that lie wholly within [fromMs, toMs) of the run merged into one: the steady state once the
     * ramp-up is over. Empty when no window fits.
     */
    public Optional<Window> steady(long fromMs, long toMs) {
        Histogram merged = new Histogram(3_600_000_000L, 2);
        long errors = 0;
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (Map.Entry<Long, Bucket> e : buckets.entrySet()) {
            long start = e.getKey() * windowMs;
            long end = start + windowMs;
            if (start >= fromMs && end <= toMs && end <= roundUpToSecond(lastStart + 1) + 1000) {
                merged.add(e.getValue().us);
                errors += e.getValue().errors;
                first = Math.min(first, start);
                last = Math.max(last, end);
            }
        }
        if (merged.getTotalCount() == 0) {
            return Optional.empty();
        }
        return Optional.of(window(first, last, merged, merged.getTotalCount(), errors));
    }

    /**
     * The steady-state line: the windows wholly after {@code afterMs} merged, and the worst p99 among them (a
     * merged p99 can hide one bad window).
     */
    public String steadyLine(long afterMs) {
        Optional<Window> steady = steady(afterMs, Long.MAX_VALUE / 2);
        if (steady.isEmpty()) {
            return String.format(Locale.ROOT, "  steady     none: no whole %d-s window starts %d s or more after the"
                    + " first sample; run longer", windowMs / 1000, afterMs / 1000);
        }
        Window w = steady.get();
        long worstP99 = windows().stream().filter(x -> x.fromMs() >= w.fromMs() && x.toMs() <= w.toMs())
                .mapToLong(Window::p99Us).max().orElse(w.p99Us());
        return String.format(Locale.ROOT, "  steady     %d-%d s: %,.0f req/s  p50 %s  p95 %s  p99 %s  max %s  errors %,d"
                        + "  (worst window p99 %s)", w.fromMs() / 1000, w.toMs() / 1000, w.requestsPerSecond(),
                duration(w.p50Us()), duration(w.p95Us()), duration(w.p99Us()), duration(w.maxUs()), w.errors(),
                duration(worstP99));
    }

    private static Window window(long from, long to, Histogram h, long samples, long errors) {
        return new Window(from, to, samples, errors, h.getValueAtPercentile(50), h.getValueAtPercentile(95),
                h.getValueAtPercentile(99), h.getMaxValue());
    }

    private static long roundUpToSecond(long ms) {
        return Math.floorDiv(ms + 999, 1000) * 1000;
    }

    /** The table `stampede run` prints: one row per window. */
    public List<String> lines() {
        List<String> out = new ArrayList<>();
        out.add(String.format(Locale.ROOT, "  per %d-s window (by start time; latency of every sample):",
                windowMs / 1000));
        out.add(String.format(Locale.ROOT, "    %-13s %10s %9s %9s %9s %9s %8s", "window", "req/s", "p50", "p95",
                "p99", "max", "errors"));
        for (Window w : windows()) {
            out.add(row(w));
        }
        return out;
    }

    /** One table row, e.g. "    30-60 s        3,628   6.0 ms   ...". */
    public static String row(Window w) {
        return String.format(Locale.ROOT, "    %-13s %,10.0f %9s %9s %9s %9s %,8d",
                (w.fromMs() / 1000) + "-" + (w.toMs() / 1000) + " s", w.requestsPerSecond(), duration(w.p50Us()),
                duration(w.p95Us()), duration(w.p99Us()), duration(w.maxUs()), w.errors());
    }

    /** µs as a readable duration: "850 us", "6.0 ms", "42.7 s". */
    static String duration(long us) {
        if (us < 1000) {
            return us + " us";
        }
        if (us < 10_000_000) {
            return String.format(Locale.ROOT, us < 100_000 ? "%.1f ms" : "%.0f ms", us / 1000.0);
        }
        return String.format(Locale.ROOT, "%.1f s", us / 1_000_000.0);
    }
}
