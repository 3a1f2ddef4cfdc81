/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.compare;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Percentile bootstrap over 1-s windows, nested in rounds: one replicate of a configuration draws its runs with
 * replacement, then within each drawn run its windows with replacement, and merges the drawn windows' latencies.
 * Whole windows are drawn, not single samples, so that the slow seconds of a run (a GC, a noisy neighbour) stay
 * together and widen the interval as they should; drawing runs adds the run-to-run noise when there are rounds.
 *
 * <p>Windows are sparse histograms; every configuration is mapped onto one shared grid of bucket values, so a
 * replicate is an array of counts and its percentiles one pass over it.
 */
public final class Bootstrap {

    private final long[] grid;
    private final double[] percentiles;

    /** @param configurations each configuration's runs, each run's windows */
    public Bootstrap(List<List<List<Window>>> configurations, double[] percentiles) {
        this.percentiles = percentiles.clone();
        this.grid = configurations.stream().flatMap(List::stream).flatMap(List::stream)
                .flatMapToLong(w -> Arrays.stream(w.values())).distinct().sorted().toArray();
    }

    /**
     * The statistics of {@code replicates} resamples of one configuration: row r holds the percentiles (µs, in
     * the order given) and, last, the request rate (samples per window-second).
     */
    public double[][] replicate(List<List<Window>> runs, int replicates, long seed) {
        int[][][] index = new int[runs.size()][][];
        for (int r = 0; r < runs.size(); r++) {
            List<Window> windows = runs.get(r);
            index[r] = new int[windows.size()][];
            for (int w = 0; w < windows.size(); w++) {
                index[r][w] = indexOf(windows.get(w).values());
            }
        }
        SplittableRandom random = new SplittableRandom(seed);
        long[] counts = new long[grid.length];
        double[][] out = new double[replicates][];
        for (int rep = 0; rep < replicates; rep++) {
            Arrays.fill(counts, 0);
            long samples = 0;
            long seconds = 0;
            for (int k = 0; k < runs.size(); k++) {
                int r = random.nextInt(runs.size());
                List<Window> windows = runs.get(r);
                for (int d = 0; d < windows.size(); d++) {
                    int w = random.nextInt(windows.size());
                    Window window = windows.get(w);
                    int[] idx = index[r][w];
                    long[] c = window.counts();
                    for (int i = 0; i < idx.length; i++) {
                        counts[idx[i]] += c[i];
                    }
                    samples += window.samples();
                    seconds++;
                }
            }
            out[rep] = statistics(counts, samples, seconds);
        }
        return out;
    }

    /** The same statistics over all windows of all runs, each once: the point estimate. */
    public double[] whole(List<List<Window>> runs) {
        long[] counts = new long[grid.length];
        long samples = 0;
        long seconds = 0;
        for (List<Window> windows : runs) {
            for (Window w : windows) {
                int[] idx = indexOf(w.values());
                for (int i = 0; i < idx.length; i++) {
                    counts[idx[i]] += w.counts()[i];
                }
                samples += w.samples();
                seconds++;
            }
        }
        return statistics(counts, samples, seconds);
    }

    private double[] statistics(long[] counts, long samples, long seconds) {
        double[] stats = new double[percentiles.length + 1];
        long total = 0;
        for (long c : counts) {
            total += c;
        }
        if (total > 0) {
            // HdrHistogram's rule: the value at which the running count first reaches ceil(p * total).
            int p = 0;
            long running = 0;
            for (int i = 0; i < counts.length && p < percentiles.length; i++) {
                running += counts[i];
                while (p < percentiles.length && running >= rank(percentiles[p], total)) {
                    stats[p++] = grid[i];
                }
            }
        }
        stats[percentiles.length] = seconds == 0 ? 0 : (double) samples / seconds;
        return stats;
    }

    static long rank(double percentile, long total) {
        // As HdrHistogram's getValueAtPercentile: one ulp down, so 99.9 % of 9,000 is rank 8,991, not 8,992.
        double p = Math.min(Math.max(Math.nextDown(percentile), 0), 100);
        return Math.max(1, (long) Math.ceil(p * total / 100.0));
    }

    private int[] indexOf(long[] values) {
        int[] idx = new int[values.length];
        for (int i = 0; i < values.length; i++) {
            idx[i] = Arrays.binarySearch(grid, values[i]);
        }
        return idx;
    }
}
