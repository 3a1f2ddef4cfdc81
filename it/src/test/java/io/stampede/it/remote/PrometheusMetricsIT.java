/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.injectorhealth.InjectorSeries;
import io.stampede.it.support.FreePort;
import io.stampede.it.support.JMeterHome;
import io.stampede.it.support.Jtl;
import io.stampede.it.support.NginxServer;
import io.stampede.it.support.Plans;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real Prometheus (Debian's, run here with its own configuration, data folder and port) scrapes two injectors,
 * each `stampede run --share I/2 --metrics PORT`, every second: at the end its figures for samples, errors and
 * the latency histogram's count equal the JTLs' counts, per label too. The same for two `stampede server --metrics`
 * engines during one `stampede run --remote`.
 */
class PrometheusMetricsIT {

    private static final Path ROOT = JMeterHome.stampedeRoot();
    /** Fixed ports from this area's range: Prometheus' configuration names them before the runs start. */
    private static final int PROMETHEUS = 21510;
    private static final int[] METRICS = {21520, 21521};

    private final List<Process> processes = new ArrayList<>();
    private final List<EngineProcess> engines = new ArrayList<>();
    private int prometheus;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private NginxServer nginx;

    @TempDir
    Path dir;

    @AfterEach
    void stopEverything() throws InterruptedException {
        engines.forEach(EngineProcess::close);
        for (Process p : processes) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroy();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
        if (nginx != null) {
            nginx.close();
        }
    }

    @Test
    void prometheusSeesWhatTheJtlsHold() throws Exception {
        nginx = NginxServer.start(NginxServer.Options.defaults());
        startPrometheus(PROMETHEUS, "127.0.0.1:" + METRICS[0], "127.0.0.1:" + METRICS[1]);

        List<Process> runs = new ArrayList<>();
        for (int i = 1; i <= 2; i++) {
            List<String> args = List.of("run", Plans.get("shares.jmx").toString(), "--out",
                    dir.resolve("share" + i).toString(), "--no-dashboard", "--heap", "256m", "--host", "127.0.0.1",
                    "--port", Integer.toString(nginx.port()), "--share", i + "/2", "--metrics",
                    Integer.toString(METRICS[i - 1]), "--metrics-linger", "4", "--progress-every", "1");
            Process p = new ProcessBuilder(StampedeCli.command(ROOT, args.toArray(String[]::new)))
                    .directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(dir.resolve("share" + i + ".out").toFile()).start();
            processes.add(p);
            runs.add(p);
        }
        long samples = 0;
        long errors = 0;
        for (int i = 1; i <= 2; i++) {
            Process p = runs.get(i - 1);
            assertTrue(p.waitFor(180, TimeUnit.SECONDS), "share " + i + " did not end in 180 s");
            String console = Files.readString(dir.resolve("share" + i + ".out"));
            assertEquals(0, p.exitValue(), console);
            assertTrue(console.contains("metrics for Prometheus on http://127.0.0.1:" + METRICS[i - 1] + "/metrics"),
                    console);
            Jtl jtl = Jtl.read(dir.resolve("share" + i + "/results.jtl"));
            samples += jtl.count();
            errors += jtl.errors();
        }
        assertEquals(105, samples);
        // the targets are gone: their last values are the most a counter reached
        assertEquals(samples, query("sum(max_over_time(stampede_samples_total[5m]))"));
        assertEquals(errors, query("sum(max_over_time(stampede_errors_total[5m]))"));
        assertEquals(35, query("sum(max_over_time(stampede_errors_total{label=\"missing\",kind=\"HTTP 4xx\"}[5m]))"));
        assertEquals(35, query("sum(max_over_time(stampede_samples_total{label=\"login\"}[5m]))"));
        assertEquals(samples, query("sum(max_over_time(stampede_latency_seconds_count[5m]))"));
        assertEquals(2, query("count(max_over_time(stampede_active_threads[5m]))"), "users from each injector");
        // JMeter's own CPU comes from injector.csv, a row a second, which a share this short may end without
        // (RunMetricsTest checks the gauges from a file): what Prometheus has must match what the shares wrote
        long withSeries = 0;
        for (int i = 1; i <= 2; i++) {
            if (InjectorSeries.readIfPresent(dir.resolve("share" + i)).isPresent()) {
                withSeries++;
            }
        }
        if (withSeries > 0) {
            assertEquals(withSeries, query("count(max_over_time(stampede_injector_process_cpu_cores[5m]))"),
                    "JMeter's own CPU from each injector with a series");
        }
    }

    /**
     * `stampede server --metrics` on each of 2 engines, scraped during one `run --remote`: each engine serves its own
     * figures, which add up to the controller's JTL, and each engine's equal its share's rows there.
     */
    @Test
    void prometheusScrapesTwoEnginesDuringOneRemoteRun() throws Exception {
        nginx = NginxServer.start(NginxServer.Options.defaults());
        // both engines start together: a JMeter engine takes seconds to come up
        List<CompletableFuture<EngineProcess>> starting = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            starting.add(CompletableFuture.supplyAsync(() -> {
                try {
                    return EngineProcess.start(ROOT, dir, FreePort.loopback(), FreePort.loopback(),
                            Duration.ofSeconds(120), "--metrics", "0");
                } catch (IOException | InterruptedException ex) {
                    throw new IllegalStateException(ex);
                }
            }));
        }
        Exception failed = null;
        for (CompletableFuture<EngineProcess> f : starting) {
            try {
                // each start gives up by itself after 120 s, closing what it started
                engines.add(f.get(150, TimeUnit.SECONDS));
            } catch (ExecutionException | TimeoutException ex) {
                failed = ex;
            }
        }
        if (failed != null) {
            throw failed;
        }
        List<String> targets = new ArrayList<>();
        for (EngineProcess e : engines) {
            Matcher m = Pattern.compile("stampede server: metrics for Prometheus on http://(127\\.0\\.0\\.1:\\d+)/metrics")
                    .matcher(e.output());
            assertTrue(m.find(), e.output());
            targets.add(m.group(1));
        }
        startPrometheus(FreePort.loopback(), targets.toArray(String[]::new));

        Path console = dir.resolve("remote.out");
        List<String> args = List.of("run", Plans.get("shares.jmx").toString(), "--out", dir.resolve("remote").toString(),
                "--no-dashboard", "--heap", "256m", "--host", "127.0.0.1", "--port", Integer.toString(nginx.port()),
                "--remote", engines.get(0).address() + "," + engines.get(1).address());
        assertEquals(0, StampedeCli.runToEnd(ROOT, dir, console, args), Files.readString(console));
        Jtl jtl = Jtl.read(dir.resolve("remote/results.jtl"));
        assertEquals(105, jtl.count());

        // the engines still serve: their last counts arrive within a poll of their spool and a scrape
        assertEquals(jtl.count(), awaitQuery("sum(stampede_samples_total)", jtl.count()), "samples");
        assertEquals(jtl.errors(), query("sum(stampede_errors_total)"), "errors");
        assertEquals(35, query("sum(stampede_errors_total{label=\"missing\",kind=\"HTTP 4xx\"})"));
        assertEquals(35, query("sum(stampede_samples_total{label=\"login\"})"));
        assertEquals(jtl.count(), query("sum(stampede_latency_seconds_count)"));
        // each engine its own share: 4 and 3 of the plan's 7 users, 5 loops, 3 requests (threads i1of2-, i2of2-)
        Map<String, Long> perEngine = byInstance("sum by (instance) (stampede_samples_total)");
        assertEquals(Map.of(targets.get(0), (long) jtl.filter(r -> r.threadName().startsWith("i1of2-")).count(),
                targets.get(1), (long) jtl.filter(r -> r.threadName().startsWith("i2of2-")).count()), perEngine);
        assertEquals(Map.of(targets.get(0), 60L, targets.get(1), 45L), perEngine);
        // gauges start at 0: each engine's samples reported their connections (Stampede's sample variables, which
        // `stampede server --metrics` turns on) and users
        assertTrue(query("min(max_over_time(stampede_open_connections[5m]))") >= 1, "connections on each engine");
        assertTrue(query("min(max_over_time(stampede_active_threads[5m]))") >= 1, "users on each engine");
        assertEquals(2, query("count(max_over_time(stampede_open_connections[5m]))"));
    }

    /** Debian's Prometheus, scraping {@code targets} every second, with its own configuration and data folder. */
    private void startPrometheus(int port, String... targets) throws Exception {
        prometheus = port;
        Files.writeString(dir.resolve("prometheus.yml"), """
                global:
                  scrape_interval: 1s
                  scrape_timeout: 1s
                scrape_configs:
                  - job_name: stampede
                    static_configs:
                      - targets: [%s]
                """.formatted(Stream.of(targets).map(t -> "'" + t + "'").collect(Collectors.joining(", "))));
        processes.add(new ProcessBuilder("/usr/bin/prometheus", "--config.file=" + dir.resolve("prometheus.yml"),
                "--storage.tsdb.path=" + dir.resolve("prometheus-data"),
                "--web.listen-address=127.0.0.1:" + port).redirectErrorStream(true)
                .redirectOutput(dir.resolve("prometheus.log").toFile()).start());
        awaitReady();
    }

    private void awaitReady() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + prometheus
                        + "/-/ready")).build(), HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(200);
        }
        throw new AssertionError("Prometheus not ready in 30 s:\n" + Files.readString(dir.resolve("prometheus.log")));
    }

    /** One number from an instant query of Prometheus' HTTP API. */
    private long query(String promql) throws Exception {
        String body = answer(promql);
        Matcher m = Pattern.compile("\"value\":\\[[0-9.]+,\"([0-9.eE+-]+)\"\\]").matcher(body);
        assertTrue(m.find(), promql + " -> " + body);
        return Math.round(Double.parseDouble(m.group(1)));
    }

    /** The numbers of a query grouped by instance (the scrape target), e.g. {@code sum by (instance) (...)}. */
    private Map<String, Long> byInstance(String promql) throws Exception {
        Matcher m = Pattern.compile("\"instance\":\"([^\"]+)\"\\},\"value\":\\[[0-9.]+,\"([0-9.eE+-]+)\"\\]")
                .matcher(answer(promql));
        Map<String, Long> out = new TreeMap<>();
        while (m.find()) {
            out.put(m.group(1), Math.round(Double.parseDouble(m.group(2))));
        }
        return out;
    }

    private String answer(String promql) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + prometheus
                + "/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8))).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    /** Waits (at most 30 s) until Prometheus has scraped {@code expected} for {@code promql}; the last answer. */
    private long awaitQuery(String promql, long expected) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        long last = -1;
        while (System.nanoTime() < deadline) {
            try {
                last = query(promql);
            } catch (AssertionError noSeriesYet) {
                last = -1;
            }
            if (last == expected) {
                return last;
            }
            Thread.sleep(500);
        }
        return last;
    }
}
