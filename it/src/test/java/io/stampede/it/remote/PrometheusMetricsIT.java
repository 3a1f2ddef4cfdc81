/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.injectorhealth.InjectorSeries;
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
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real Prometheus (Debian's, run here with its own configuration, data folder and port) scrapes two injectors,
 * each `stampede run --share I/2 --metrics PORT`, every second: at the end its figures for samples, errors and
 * the latency histogram's count equal the JTLs' counts, per label too.
 */
class PrometheusMetricsIT {

    private static final Path ROOT = JMeterHome.stampedeRoot();
    /** Fixed ports from this area's range: Prometheus' configuration names them before the runs start. */
    private static final int PROMETHEUS = 21510;
    private static final int[] METRICS = {21520, 21521};

    private final List<Process> processes = new ArrayList<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private NginxServer nginx;

    @TempDir
    Path dir;

    @AfterEach
    void stopEverything() throws InterruptedException {
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
        Files.writeString(dir.resolve("prometheus.yml"), """
                global:
                  scrape_interval: 1s
                  scrape_timeout: 1s
                scrape_configs:
                  - job_name: stampede
                    static_configs:
                      - targets: ['127.0.0.1:%d', '127.0.0.1:%d']
                """.formatted(METRICS[0], METRICS[1]));
        processes.add(new ProcessBuilder("/usr/bin/prometheus", "--config.file=" + dir.resolve("prometheus.yml"),
                "--storage.tsdb.path=" + dir.resolve("prometheus-data"),
                "--web.listen-address=127.0.0.1:" + PROMETHEUS).redirectErrorStream(true)
                .redirectOutput(dir.resolve("prometheus.log").toFile()).start());
        awaitReady();

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

    private void awaitReady() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + PROMETHEUS
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
        String body = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + PROMETHEUS
                + "/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8))).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        Matcher m = Pattern.compile("\"value\":\\[[0-9.]+,\"([0-9.eE+-]+)\"\\]").matcher(body);
        assertTrue(m.find(), promql + " -> " + body);
        return Math.round(Double.parseDouble(m.group(1)));
    }
}
