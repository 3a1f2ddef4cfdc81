/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.metrics;

import io.stampede.cli.HttpServerLimits;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.stampede.injectorhealth.InjectorSeries;
import io.stampede.injectorhealth.ScheduleLag;
import io.stampede.results.ErrorKind;
import io.stampede.results.Sample;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.ToDoubleFunction;

/**
 * A run's figures for Prometheus, served with Prometheus' own client library on {@code /metrics}: samples and
 * errors by label (errors also by kind, as the summary groups them), latency histograms fed with the same
 * microsecond values as latency.hlog, the open connections and active threads the samples report, the schedule
 * lag, and JMeter's own CPU, GC, stalls, heap and event-loop lag from its injector series. Samples arrive as the
 * run reads the JTL (every progress tick), or as a `stampede server` engine spools them ({@code EngineSamples});
 * the injector's figures are read when Prometheus scrapes.
 */
public final class RunMetrics implements Consumer<Sample>, AutoCloseable {

    /** Latency bucket bounds in seconds: a LAN response (0.1 ms) up to a minute. */
    private static final double[] BUCKETS = {0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1,
        0.25, 0.5, 1, 2.5, 5, 10, 30, 60};

    private final HTTPServer server;
    private final Counter samples;
    private final Counter errors;
    private final Histogram latency;
    private final Gauge openConnections;
    private final Gauge activeThreads;
    private final Gauge scheduleLagMax;
    private final ScheduleLag lag = new ScheduleLag();
    /** injector.csv of the run, known once its results folder is claimed; an engine's own series. */
    private volatile Path series;

    private RunMetrics(PrometheusRegistry registry, HTTPServer server) {
        this.server = server;
        samples = Counter.builder().name("stampede_samples").help("Samples recorded, by label")
                .labelNames("label").register(registry);
        errors = Counter.builder().name("stampede_errors").help("Failed samples, by label and kind of error")
                .labelNames("label", "kind").register(registry);
        latency = Histogram.builder().name("stampede_latency_seconds").help("Sample latency (elapsed), from the"
                + " microsecond values latency.hlog holds").labelNames("label").classicUpperBounds(BUCKETS)
                .register(registry);
        openConnections = Gauge.builder().name("stampede_open_connections").help("Connections Stampede's samplers"
                + " hold open, as the last sample reported").register(registry);
        activeThreads = Gauge.builder().name("stampede_active_threads").help("Active JMeter threads (users), as the"
                + " last sample reported").register(registry);
        scheduleLagMax = Gauge.builder().name("stampede_schedule_lag_max_seconds").help("The longest a scheduled"
                + " request (pacing, target rate) was sent after its intended time").register(registry);
    }

    /** Serves the metrics on {@code bind:port} (port 0: any free port) until closed. */
    public static RunMetrics start(String bind, int port) throws IOException {
        PrometheusRegistry registry = new PrometheusRegistry();
        // The JDK server under Prometheus' reads the request time limit once for the process: set it first.
        HttpServerLimits.apply();
        HTTPServer server = HTTPServer.builder().hostname(bind).port(port).registry(registry).buildAndStart();
        RunMetrics m = new RunMetrics(registry, server);
        injector(registry, m, "stampede_injector_process_cpu_cores", "CPU cores JMeter's process used",
                InjectorSeries.Row::processCpu);
        injector(registry, m, "stampede_injector_machine_cpu_cores", "CPU cores the machine used",
                InjectorSeries.Row::machineCpu);
        injector(registry, m, "stampede_injector_gc_pause_seconds", "JMeter's GC pauses in the last second",
                r -> r.gcPauseMs() / 1000);
        injector(registry, m, "stampede_injector_stall_max_seconds", "The longest a thread waited for the"
                + " CPU in the last second", r -> r.stallMaxMs() / 1000);
        injector(registry, m, "stampede_injector_heap_used_bytes", "JMeter's heap in use",
                r -> r.heapUsedMb() * 1024 * 1024);
        injector(registry, m, "stampede_injector_loop_lag_max_seconds", "The longest Stampede's event loops"
                + " took to run a task in the last second", r -> r.loopLagMaxMs() / 1000);
        return m;
    }

    private static void injector(PrometheusRegistry registry, RunMetrics m, String name, String help,
                                 ToDoubleFunction<InjectorSeries.Row> value) {
        GaugeWithCallback.builder().name(name).help(help + " (injector.csv's last row)")
                .callback(cb -> last(m.series).ifPresent(r -> cb.call(value.applyAsDouble(r)))).register(registry);
    }

    /** The run's results folder, where JMeter's injector monitor writes injector.csv. */
    public void seriesIn(Path folder) {
        seriesFile(folder.resolve(InjectorSeries.FILE));
    }

    /** The file JMeter's injector monitor writes (a `stampede server` engine's is named after its log). */
    public void seriesFile(Path file) {
        series = file;
    }

    private static Optional<InjectorSeries.Row> last(Path series) {
        if (series == null) {
            return Optional.empty();
        }
        try {
            return InjectorSeries.readFile(series).map(InjectorSeries::rows).filter(r -> !r.isEmpty())
                    .map(r -> r.get(r.size() - 1));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public int port() {
        return server.getPort();
    }

    @Override
    public void accept(Sample s) {
        samples.labelValues(s.label()).inc();
        if (!s.success()) {
            errors.labelValues(s.label(), ErrorKind.of(s.responseCode(), s.responseMessage()).label()).inc();
        }
        // the value RunStatistics puts into latency.hlog
        long us = Math.max(0, s.elapsedUs() >= 0 ? s.elapsedUs() : s.elapsed() * 1000);
        latency.labelValues(s.label()).observe(us / 1e6);
        activeThreads.set(s.allThreads());
        if (s.openConnections() >= 0) {
            openConnections.set(s.openConnections());
        }
        lag.add(s);
        scheduleLagMax.set(lag.maxLagUs() / 1e6);
    }

    @Override
    public void close() {
        server.close();
    }
}
