/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.compare;

import io.stampede.injectorhealth.InjectorSeries;
import io.stampede.injectorhealth.InjectorShare;
import io.stampede.injectorhealth.ScheduleLag;
import io.stampede.results.ErrorKind;
import io.stampede.results.JtlTail;
import io.stampede.results.LatencyHistogramFile;
import io.stampede.results.Sample;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.HdrHistogram.Histogram;

/** Reads a result folder of `stampede run` (results.jtl, latency.hlog, summary.txt, injector.csv). */
public final class RunFolder {
    public static final String JTL = "results.jtl";
    public static final String HLOG = "latency.hlog";
    public static final String SUMMARY = "summary.txt";
    private static final Pattern PLAN_LINE = Pattern.compile("^stampede run: (\\S+) against ");

    private RunFolder() {}

    public static RunData read(Path folder, String name) throws CompareInputException, IOException {
        return read(folder, name, 0);
    }

    /**
     * @param warmupSeconds samples that started in the run's first seconds are left out (JMeter's own start:
     *                      class loading, JIT); the overall row then comes from the JTL, not latency.hlog
     */
    public static RunData read(Path folder, String name, int warmupSeconds) throws CompareInputException,
            IOException {
        if (!Files.exists(folder)) {
            throw new CompareInputException(name + ": no such folder: " + folder
                    + " (give a result folder written by `stampede run`)");
        }
        if (!Files.isDirectory(folder)) {
            throw new CompareInputException(name + ": " + folder + " is a file, not a result folder of `stampede run`");
        }
        Path jtl = folder.resolve(JTL);
        if (!Files.isRegularFile(jtl)) {
            throw new CompareInputException(name + ": " + folder + " holds no " + JTL
                    + ": not a result folder of `stampede run` (give the folder `stampede run --out` wrote)");
        }
        List<Sample> samples = new ArrayList<>();
        try (JtlTail tail = new JtlTail(jtl)) {
            tail.poll(samples::add);
        }
        if (samples.isEmpty()) {
            throw new CompareInputException(name + ": " + jtl + " has no samples (the run produced none)");
        }
        if (warmupSeconds > 0) {
            long start = samples.stream().mapToLong(Sample::timeStamp).min().orElseThrow();
            samples.removeIf(s -> s.timeStamp() < start + warmupSeconds * 1000L);
            if (samples.isEmpty()) {
                throw new CompareInputException(name + ": " + jtl + " has no samples after the first "
                        + warmupSeconds + " s: give a shorter --warmup");
            }
        }
        long first = samples.stream().mapToLong(Sample::timeStamp).min().orElseThrow();
        long last = samples.stream().mapToLong(s -> s.timeStamp() + Math.max(s.elapsed(), 0)).max().orElseThrow();
        long corrected = samples.stream().filter(s -> s.correctedUs() >= 0).count();
        String kind = corrected == samples.size() ? "corrected" : corrected == 0 ? "elapsed" : "mixed";

        Series.Builder all = new Series.Builder();
        Map<String, Series.Builder> byLabel = new TreeMap<>();
        Map<String, Long> errors = new LinkedHashMap<>();
        ScheduleLag lag = new ScheduleLag();
        for (Sample s : samples) {
            lag.add(s);
            int second = (int) ((s.timeStamp() - first) / 1000);
            long us = latencyMicros(s);
            all.add(second, us, !s.success());
            byLabel.computeIfAbsent(s.label(), l -> new Series.Builder()).add(second, us, !s.success());
            if (!s.success()) {
                errors.merge(ErrorKind.of(s.responseCode(), s.responseMessage()).label(), 1L, Long::sum);
            }
        }
        Map<String, Series> labels = new LinkedHashMap<>();
        byLabel.forEach((l, b) -> labels.put(l, b.build()));
        Path hlogFile = folder.resolve(HLOG);
        Map<String, Histogram> hlog = Files.isRegularFile(hlogFile) && warmupSeconds == 0
                ? LatencyHistogramFile.read(hlogFile) : Map.of();
        long span = Math.max(1, last - first);
        InjectorShare injector = InjectorShare.of(lag, InjectorSeries.readIfPresent(folder), span);
        return new RunData(name, folder, plan(folder), kind, all.build(), labels, errors, hlog, first, span,
                injector);
    }

    /** Corrected for coordinated omission where the sampler recorded it, else µs elapsed, else ms elapsed. */
    static long latencyMicros(Sample s) {
        if (s.correctedUs() >= 0) {
            return s.correctedUs();
        }
        return s.elapsedUs() >= 0 ? s.elapsedUs() : Math.max(s.elapsed(), 0) * 1000;
    }

    /** The plan's file name from summary.txt's first line, or "" when the folder has no summary. */
    static String plan(Path folder) throws IOException {
        Path summary = folder.resolve(SUMMARY);
        if (!Files.isRegularFile(summary)) {
            return "";
        }
        try (var lines = Files.lines(summary)) {
            return lines.findFirst().map(PLAN_LINE::matcher).filter(Matcher::find).map(m -> m.group(1)).orElse("");
        }
    }
}
