/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.compare;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.HdrHistogram.Histogram;

/** One thing being compared (a folder, or a target's rounds): its name and its runs. */
public record Configuration(String name, List<RunData> runs) {

    public Configuration {
        runs = List.copyOf(runs);
        if (runs.isEmpty()) {
            throw new IllegalArgumentException(name + " has no runs");
        }
    }

    /** Each run's resampling windows for a label, or overall when {@code label} is null. */
    public List<List<Window>> windows(String label) {
        return runs.stream().map(r -> series(r, label)).filter(s -> s != null).map(Series::fullWindows).toList();
    }

    private static Series series(RunData r, String label) {
        return label == null ? r.overall() : r.labels().get(label);
    }

    /** The reported latencies (latency.hlog where present) of all runs merged. */
    public Histogram mergedHistogram() {
        Histogram h = new Histogram(Series.HIGHEST_US, 3);
        runs.forEach(r -> h.add(r.reportedHistogram()));
        return h;
    }

    public Histogram mergedHistogram(String label) {
        Histogram h = new Histogram(Series.HIGHEST_US, 3);
        runs.stream().map(r -> series(r, label)).filter(s -> s != null).forEach(s -> h.add(s.histogram()));
        return h;
    }

    public long samples(String label) {
        return runs.stream().map(r -> series(r, label)).filter(s -> s != null).mapToLong(Series::samples).sum();
    }

    public long errors(String label) {
        return runs.stream().map(r -> series(r, label)).filter(s -> s != null).mapToLong(Series::errors).sum();
    }

    /** Samples over the runs' summed spans. */
    public double requestsPerSecond() {
        long span = runs.stream().mapToLong(RunData::spanMs).sum();
        return span == 0 ? 0 : runs.stream().mapToLong(r -> r.overall().samples()).sum() * 1000.0 / span;
    }

    public Map<String, Long> errorsByKind() {
        Map<String, Long> m = new LinkedHashMap<>();
        runs.forEach(r -> r.errorsByKind().forEach((k, v) -> m.merge(k, v, Long::sum)));
        return m;
    }

    public Set<String> labels() {
        Set<String> s = new LinkedHashSet<>();
        runs.forEach(r -> s.addAll(r.labels().keySet()));
        return s;
    }

    public String latencyKind() {
        Set<String> kinds = new LinkedHashSet<>();
        runs.forEach(r -> kinds.add(r.latencyKind()));
        return kinds.size() == 1 ? kinds.iterator().next() : "mixed";
    }
}
