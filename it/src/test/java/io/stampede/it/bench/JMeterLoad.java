/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.bench;

import io.stampede.it.support.JMeterHome;
import io.stampede.it.support.JMeterRun;
import io.stampede.it.support.Jtl;
import io.stampede.it.support.JtlFormat;
import io.stampede.it.support.NginxServer;
import io.stampede.it.support.Plans;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One JMeter plan run for the benchmark: the warm-up starts at JMeter's first JTL line (not at JVM launch), CPU
 * and the JTL's samples are counted over the measured window that follows, while JMeter is still running.
 */
final class JMeterLoad {

    /** JMeter keeps going this long past the window, so the window never sees the ramp-down. */
    private static final int TAIL_SECONDS = 5;
    private static final Duration FIRST_SAMPLE_TIMEOUT = Duration.ofSeconds(60);

    private final JMeterHome home;
    private final NginxServer nginx;
    private final CpuTimes cpu;
    private final BenchOptions options;
    private final Path workDir;

    JMeterLoad(JMeterHome home, NginxServer nginx, CpuTimes cpu, BenchOptions options, Path workDir) {
        this.home = home;
        this.nginx = nginx;
        this.cpu = cpu;
        this.options = options;
        this.workDir = workDir;
    }

    Measurement measure(String tool, String plan) throws InterruptedException {
        return measure(tool, plan, plan.replace(".jmx", ""), java.util.Map.of());
    }

    /**
     * As {@link #measure(String, String)}, with more -J properties (a name written {@code -Dname}: a system property of
     * the JMeter JVM) and its own folder (one plan, several rows).
     */
    Measurement measure(String tool, String plan, String folder, java.util.Map<String, ?> moreProperties)
            throws InterruptedException {
        return measure(tool, Plans.get(plan), folder, moreProperties);
    }

    /** As above, for a plan outside it/src/test/resources/plans (one beside the files it reads). */
    Measurement measure(String tool, Path plan, String folder, java.util.Map<String, ?> moreProperties)
            throws InterruptedException {
        return measureRow(tool, plan, folder, moreProperties).measurement();
    }

    /** A row with the response-time percentiles of the window's samples (JTL elapsed, ms). */
    record Row(Measurement measurement, long p50, long p99) {
    }

    /**
     * As {@link #measure(String, Path, String, java.util.Map)}, with p50/p99. With {@code -Dstampede.bench.profiler}
     * (async-profiler's agent library) and {@code -Dstampede.bench.profile} (a folder) the JMeter JVM is profiled
     * (cpu) during the window into FOLDER/&lt;folder&gt;.collapsed; such a row's figures are not comparable.
     */
    Row measureRow(String tool, Path plan, String folder, java.util.Map<String, ?> moreProperties)
            throws InterruptedException {
        JMeterRun.Running running = start(plan, folder, moreProperties, options.durationSeconds() + TAIL_SECONDS);
        Thread.sleep(options.warmupSeconds() * 1000L);
        Profiler profiler = Profiler.fromSystemProperties();
        if (profiler != null) {
            profiler.start(running.pid());
        }
        CpuWindow window = CpuWindow.open(cpu, () -> cpu.processSeconds(running.pid()), nginx.processes());
        Thread.sleep(options.measuredSeconds() * 1000L);
        CpuWindow.Ended ended = window.end();
        if (profiler != null) {
            profiler.stop(running.pid(), folder);
        }
        JMeterRun.Result result = running.await();
        if (!result.succeeded()) {
            throw new IllegalStateException(tool + ": " + result.describe());
        }
        AtomicLong requests = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        AtomicLong allErrors = new AtomicLong();
        long[] byMillis = new long[60_001]; // elapsed ms, the last slot for a minute and more
        Jtl.scan(result.jtl(), row -> {
            long t = row.timeStamp();
            boolean ok = row.success();
            if (!ok) {
                allErrors.incrementAndGet();
            }
            if (t >= ended.startMillis() && t < ended.endMillis()) {
                requests.incrementAndGet();
                byMillis[(int) Math.max(0, Math.min(byMillis.length - 1, row.elapsed()))]++;
                if (!ok) {
                    errors.incrementAndGet();
                }
            }
        });
        if (allErrors.get() > errors.get()) {
            System.out.printf("  note: %s had %d failed samples outside the measured window%n", tool,
                    allErrors.get() - errors.get());
        }
        return new Row(ended.measurement(tool, requests.get(), errors.get()), percentile(byMillis, 0.50),
                percentile(byMillis, 0.99));
    }

    /**
     * Starts JMeter on the plan for {@code runSeconds} with the benchmark's properties and {@code moreProperties} (a
     * name written {@code -Dname}: a system property of the JMeter JVM; {@code -X...}: a JVM option), and returns once
     * its first sample is in the JTL.
     */
    JMeterRun.Running start(Path plan, String folder, java.util.Map<String, ?> moreProperties, int runSeconds)
            throws InterruptedException {
        JMeterRun run = JMeterRun.of(home, plan, workDir.resolve(folder));
        java.util.Map<String, Object> jmeterProperties = new java.util.LinkedHashMap<>();
        for (java.util.Map.Entry<String, ?> p : moreProperties.entrySet()) {
            if (p.getKey().startsWith("-X")) { // a JVM option of the JMeter JVM
                run = run.jvmOption(p.getKey());
            } else if (p.getKey().startsWith("-D")) { // a system property of the JMeter JVM
                run = run.jvmOption(p.getKey() + "=" + p.getValue());
            } else {
                jmeterProperties.put(p.getKey(), p.getValue());
            }
        }
        JMeterRun.Running running = run
                .jtlFormat(JtlFormat.jmeterDefaults())
                // No summariser for any row, as `stampede run` does: its per-sample lock costs every sampler
                // throughput, stock JMeter's most (measured here: 25k vs 37k req/s at 200 threads).
                .property("summariser.name", "")
                .property("host", nginx.host())
                .property("port", nginx.port())
                .property("threads", options.connections())
                .property("duration", runSeconds)
                .properties(jmeterProperties)
                .timeout(Duration.ofSeconds(runSeconds + 120))
                .start();
        awaitFirstSample(running);
        return running;
    }

    /** Failed samples in a finished run's JTL. */
    static long errors(JMeterRun.Result result) {
        AtomicLong errors = new AtomicLong();
        Jtl.scan(result.jtl(), row -> {
            if (!row.success()) {
                errors.incrementAndGet();
            }
        });
        return errors.get();
    }

    private static long percentile(long[] byMillis, double p) {
        long total = 0;
        for (long n : byMillis) {
            total += n;
        }
        long rank = (long) Math.ceil(p * total);
        long seen = 0;
        for (int ms = 0; ms < byMillis.length; ms++) {
            seen += byMillis[ms];
            if (seen >= rank && seen > 0) {
                return ms;
            }
        }
        return 0;
    }

    /** The JTL grows past its header once JMeter has written (and flushed) samples: load is on. */
    private static void awaitFirstSample(JMeterRun.Running running) throws InterruptedException {
        long deadline = System.nanoTime() + FIRST_SAMPLE_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!running.isAlive()) {
                throw new IllegalStateException("JMeter ended before its first sample: " + running.await().describe());
            }
            if (lines(running.jtl()) > 1) {
                return;
            }
            Thread.sleep(50);
        }
        throw new IllegalStateException("no sample in " + running.jtl() + " after " + FIRST_SAMPLE_TIMEOUT);
    }

    private static long lines(Path jtl) {
        try {
            if (!Files.exists(jtl) || Files.size(jtl) == 0) {
                return 0;
            }
            try (var in = Files.newBufferedReader(jtl)) {
                return in.lines().limit(2).count();
            }
        } catch (IOException e) {
            return 0;
        }
    }
}
