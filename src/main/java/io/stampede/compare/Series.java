/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.compare;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.HdrHistogram.HistogramIterationValue;
import org.HdrHistogram.Histogram;

/**
 * The samples of one label (or of all labels) in one run: the whole-run histogram and the 1-s windows that the
 * confidence intervals resample. Built from (start second, µs, failed) triples in any order.
 */
public final class Series {
    static final long HIGHEST_US = 3_600_000_000L;

    private final Histogram merged;
    private final List<Window> windows;

    private Series(Histogram merged, List<Window> windows) {
        this.merged = merged;
        this.windows = List.copyOf(windows);
    }

    /** The whole run's latencies in µs. */
    public Histogram histogram() {
        return merged;
    }

    /** Every second that has samples, in time order (the last one may be partial). */
    public List<Window> windows() {
        return windows;
    }

    /** Windows for resampling: the last, partial second is left out when there are three or more. */
    public List<Window> fullWindows() {
        return windows.size() >= 3 ? windows.subList(0, windows.size() - 1) : windows;
    }

    public long samples() {
        return merged.getTotalCount();
    }

    public long errors() {
        return windows.stream().mapToLong(Window::errors).sum();
    }

    /** Samples per second of every second from 0 to the last one (0 where none started). */
    public long[] perSecond() {
        int last = windows.isEmpty() ? -1 : windows.get(windows.size() - 1).second();
        long[] r = new long[last + 1];
        windows.forEach(w -> r[w.second()] = w.samples());
        return r;
    }

    /** Collects samples; {@link #build()} sorts them into windows. */
    public static final class Builder {
        private int[] seconds = new int[1024];
        private long[] micros = new long[1024];
        private boolean[] failed = new boolean[1024];
        private int n;

        public void add(int second, long us, boolean failure) {
            if (n == seconds.length) {
                seconds = Arrays.copyOf(seconds, n * 2);
                micros = Arrays.copyOf(micros, n * 2);
                failed = Arrays.copyOf(failed, n * 2);
            }
            seconds[n] = Math.max(second, 0);
            micros[n] = Math.min(Math.max(us, 0), HIGHEST_US);
            failed[n] = failure;
            n++;
        }

        public Series build() {
            Integer[] order = new Integer[n];
            for (int i = 0; i < n; i++) {
                order[i] = i;
            }
            Arrays.sort(order, (a, b) -> Integer.compare(seconds[a], seconds[b]));
            Histogram all = new Histogram(HIGHEST_US, 3);
            Histogram one = new Histogram(HIGHEST_US, 3);
            List<Window> windows = new ArrayList<>();
            int i = 0;
            while (i < n) {
                int second = seconds[order[i]];
                one.reset();
                long errors = 0;
                int j = i;
                for (; j < n && seconds[order[j]] == second; j++) {
                    one.recordValue(micros[order[j]]);
                    if (failed[order[j]]) {
                        errors++;
                    }
                }
                all.add(one);
                windows.add(sparse(second, one, errors));
                i = j;
            }
            return new Series(all, windows);
        }

        private static Window sparse(int second, Histogram h, long errors) {
            int size = 0;
            for (HistogramIterationValue ignored : h.recordedValues()) {
                size++;
            }
            long[] values = new long[size];
            long[] counts = new long[size];
            int k = 0;
            for (HistogramIterationValue v : h.recordedValues()) {
                values[k] = h.highestEquivalentValue(v.getValueIteratedTo());
                counts[k] = v.getCountAtValueIteratedTo();
                k++;
            }
            return new Window(second, values, counts, h.getTotalCount(), errors);
        }
    }
}
