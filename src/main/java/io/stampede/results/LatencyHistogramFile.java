/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.results;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.HdrHistogram.HistogramLogWriter;

/**
 * The run's latency histograms in HdrHistogram's log format (readable by HistogramLogProcessor and HdrHistogram's
 * plotting tools), microsecond values, one interval for the whole run per tag: {@code elapsed} (send to complete
 * response) and, when the samplers ran on a schedule, {@code corrected} (intended send time to complete response,
 * i.e. corrected for coordinated omission).
 */
public final class LatencyHistogramFile {
    public static final String ELAPSED = "elapsed";
    public static final String CORRECTED = "corrected";
    private static final double[] PERCENTILES = {50, 90, 99, 99.9, 99.99};

    private LatencyHistogramFile() {}

    public static void write(Path file, RunStatistics stats, long startMillis, long endMillis) throws IOException {
        Map<String, Histogram> byTag = new LinkedHashMap<>();
        byTag.put(ELAPSED, stats.elapsedMicros());
        byTag.put(CORRECTED, stats.correctedMicros());
        write(file, byTag, startMillis, endMillis);
    }

    /** Writes one interval per tag ({@link #ELAPSED} always, the others when they hold values). */
    public static void write(Path file, Map<String, Histogram> byTag, long startMillis, long endMillis)
            throws IOException {
        try (PrintStream out = new PrintStream(file.toFile(), "US-ASCII")) {
            HistogramLogWriter w = new HistogramLogWriter(out);
            w.outputComment("Stampede run latencies in microseconds; tags: elapsed, corrected (from the intended "
                    + "send time)");
            w.outputLogFormatVersion();
            w.setBaseTime(startMillis);
            w.outputStartTime(startMillis);
            w.outputLegend();
            for (Map.Entry<String, Histogram> e : byTag.entrySet()) {
                if (e.getKey().equals(ELAPSED) || e.getValue().getTotalCount() > 0) {
                    writeTagged(w, e.getValue(), e.getKey(), startMillis, endMillis);
                }
            }
        } catch (FileNotFoundException e) {
            throw new IOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    private static void writeTagged(HistogramLogWriter w, Histogram h, String tag, long start, long end) {
        Histogram copy = h.copy();
        copy.setTag(tag);
        copy.setStartTimeStamp(start);
        copy.setEndTimeStamp(Math.max(end, start + 1));
        w.outputIntervalHistogram(copy);
    }

    /** The histograms of a file written by {@link #write}, by tag. */
    public static Map<String, Histogram> read(Path file) throws IOException {
        Map<String, Histogram> byTag = new LinkedHashMap<>();
        try (HistogramLogReader r = new HistogramLogReader(file.toFile())) {
            EncodableHistogram h;
            while ((h = r.nextIntervalHistogram()) != null) {
                if (h instanceof Histogram hist) {
                    byTag.merge(hist.getTag() == null ? ELAPSED : hist.getTag(), hist, (a, b) -> {
                        a.add(b);
                        return a;
                    });
                }
            }
        }
        return byTag;
    }

    /** "p50 1.234 ms  p90 …  p99.99 …  max …" from a µs histogram. */
    public static String percentileLine(Histogram us) {
        StringBuilder s = new StringBuilder();
        for (double p : PERCENTILES) {
            s.append(String.format(Locale.ROOT, "p%s %.3f ms  ", p == (long) p ? Long.toString((long) p)
                    : Double.toString(p), us.getValueAtPercentile(p) / 1000.0));
        }
        s.append(String.format(Locale.ROOT, "max %.3f ms", us.getMaxValue() / 1000.0));
        return s.toString();
    }

    /** Summary lines for every histogram in the file. */
    public static List<String> summaryLines(Map<String, Histogram> byTag) {
        return byTag.entrySet().stream()
                .filter(e -> e.getValue().getTotalCount() > 0)
                .map(e -> String.format(Locale.ROOT, "  %-10s %s", e.getKey().equals(CORRECTED) ? "corrected"
                        : "latency", percentileLine(e.getValue())))
                .toList();
    }
}
