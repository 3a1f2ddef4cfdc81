/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.results;

import io.stampede.injectorhealth.ScheduleLag;
import java.util.EnumMap;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/** Counts and latency distribution of a run, fed row by row from the JTL. */
public final class RunStatistics {

    private final Histogram elapsedMs = new Histogram(3_600_000L, 3);
    /** Microseconds, from the sampler's own µs column when the JTL has it, else the ms elapsed column. */
    private final Histogram elapsedUs = new Histogram(3_600_000_000L, 3);
    /** Microseconds from the intended send time; only samples that carry the column. */
    private final Histogram correctedUs = new Histogram(3_600_000_000L, 3);
    private int openConnections = -1;
    private final Map<ErrorKind, Long> errorsByKind = new EnumMap<>(ErrorKind.class);
    private final Map<String, Long> errorsByCode = new TreeMap<>();
    private final Map<String, Long> samplesByProtocol = new TreeMap<>();
    private long samples;
    private long errors;
    private long firstStart = Long.MAX_VALUE;
    private long lastEnd = Long.MIN_VALUE;
    private int activeThreads;
    private final ScheduleLag scheduleLag = new ScheduleLag();
    private int peakActiveThreads;
    private int peakOpenConnections = -1;

    public void add(Sample s) {
        samples++;
        scheduleLag.add(s);
        elapsedMs.recordValue(Math.min(Math.max(s.elapsed(), 0), 3_600_000L));
        firstStart = Math.min(firstStart, s.timeStamp());
        lastEnd = Math.max(lastEnd, s.timeStamp() + s.elapsed());
        activeThreads = s.allThreads();
        peakActiveThreads = Math.max(peakActiveThreads, activeThreads);
        elapsedUs.recordValue(clampUs(s.elapsedUs() >= 0 ? s.elapsedUs() : s.elapsed() * 1000));
        if (s.correctedUs() >= 0) {
            correctedUs.recordValue(clampUs(s.correctedUs()));
        }
        if (s.openConnections() >= 0) {
            openConnections = s.openConnections();
            peakOpenConnections = Math.max(peakOpenConnections, openConnections);
        }
        if (!s.protocol().isEmpty()) {
            samplesByProtocol.merge(s.protocol(), 1L, Long::sum);
        }
        if (!s.success()) {
            errors++;
            errorsByKind.merge(ErrorKind.of(s.responseCode(), s.responseMessage()), 1L, Long::sum);
            errorsByCode.merge(s.responseCode() + " " + stripPrefix(s.responseMessage()), 1L, Long::sum);
        }
    }

    private static long clampUs(long us) {
        return Math.min(Math.max(us, 0), 3_600_000_000L);
    }

    /** How late the samples on a schedule were sent. */
    public ScheduleLag scheduleLag() {
        return scheduleLag;
    }

    /** Open connections reported by the latest sample that carried the column, or -1 (stock samplers only). */
    public int openConnections() {
        return openConnections;
    }

    /** Elapsed time in µs of every sample (µs resolution where the sampler wrote stampede_elapsed_us). */
    public Histogram elapsedMicros() {
        return elapsedUs;
    }

    /** Latency from the intended send time in µs, over the samples that carry it (empty if none do). */
    public Histogram correctedMicros() {
        return correctedUs;
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

    /** The most threads JMeter had running at once (the JTL's allThreads), over the whole run. */
    public int peakActiveThreads() {
        return peakActiveThreads;
    }

    /** The most connections Stampede's samplers had open at once, or -1 when no sample carried the column. */
    public int peakOpenConnections() {
        return peakOpenConnections;
    }

    public Map<ErrorKind, Long> errorsByKind() {
        return Map.copyOf(errorsByKind);
    }

    /** Samples per protocol spoken (the stampede_protocol column), by name; empty when no sample carried it. */
    public Map<String, Long> samplesByProtocol() {
        return Map.copyOf(samplesByProtocol);
    }

    public Map<String, Long> errorsByCode() {
        return Map.copyOf(errorsByCode);
    }

    /** The first sample's start, ms since the epoch (0 before any sample). */
    public long firstStartMillis() {
        return samples == 0 ? 0 : firstStart;
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
