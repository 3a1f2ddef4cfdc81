/*
 * Licensed under the Apache License, Version 2.0.
 */
package io.stampede.results;

import java.util.EnumMap;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/** Counts and latency distribution of a run, fed row by row from the JTL. */
public final class RunStatistics {

    private final Histogram elapsedMs = new Histogram(3_600_000L, 3);
    private final Map<ErrorKind, Long> errorsByKind = new EnumMap<>(ErrorKind.class);
    private final Map<String, Long> errorsByCode = new TreeMap<>();
    private long samples;
    private long errors;
    private long firstStart = Long.MAX_VALUE;
    private long lastEnd = Long.MIN_VALUE;
    private int activeThreads;

    public void add(Sample s) {
        samples++;
        elapsedMs.recordValue(Math.min(Math.max(s.elapsed(), 0), 3_600_000L));
        firstStart = Math.min(firstStart, s.timeStamp());
        lastEnd = Math.max(lastEnd, s.timeStamp() + s.elapsed());
        activeThreads = s.allThreads();
        if (!s.success()) {
            errors++;
            errorsByKind.merge(ErrorKind.of(s.responseCode(), s.responseMessage()), 1L, Long::sum);
            errorsByCode.merge(s.responseCode() + " " + stripPrefix(s.responseMessage()), 1L, Long::sum);
        }
    }

    private static String stripPrefix(String message) {
        return message.startsWith("Non HTTP response message: ")
                ? message.substring("Non HTTP response message: ".length()) : message;
    }

    public long samples() {
        return samples;
    }

    public long errors() {
        return errors;
    }

    public int activeThreads() {
        return activeThreads;
    }

    public Map<ErrorKind, Long> errorsByKind() {
        return Map.copyOf(errorsByKind);
    }

    public Map<String, Long> errorsByCode() {
        return Map.copyOf(errorsByCode);
    }

    /** From the first sample's start to the last sample's end, in ms; 0 before any sample. */
    public long spanMs() {
        return samples == 0 ? 0 : Math.max(1, lastEnd - firstStart);
    }

    public double requestsPerSecond() {
        return samples == 0 ? 0 : samples * 1000.0 / spanMs();
    }

    public double errorRate() {
        return samples == 0 ? 0 : (double) errors / samples;
    }

    /** Latency (elapsed) percentile in ms. */
    public long percentileMs(double p) {
        return samples == 0 ? 0 : elapsedMs.getValueAtPercentile(p);
    }

    public long maxMs() {
        return samples == 0 ? 0 : elapsedMs.getMaxValue();
    }

    public double meanMs() {
        return samples == 0 ? 0 : elapsedMs.getMean();
    }
}
