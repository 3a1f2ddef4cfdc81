/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.metrics;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.injectorhealth.InjectorSeries;
import io.stampede.names.PluginNames;
import io.stampede.results.Sample;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What Prometheus reads from `stampede run --metrics`: the exposition served over HTTP on loopback. */
class RunMetricsTest {

    private static String scrape(int port) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                + "/metrics")).build(), HttpResponse.BodyHandlers.ofString()).body();
    }

    @Test
    void samplesErrorsLatencyAndTheInjectorAreServed(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve(InjectorSeries.FILE), PluginNames.INJECTOR_SERIES_HEADER + "\n1,0.5,1.5,2,12.0,1,3.0,100,"
                + "4.0\n2,0.75,1.25,2,0,0,2.0,120,7.0\n");
        try (RunMetrics m = RunMetrics.start("127.0.0.1", 0)) {
            m.seriesIn(dir);
            // 1,500 µs from the samplers' column, and 3 ms from JMeter's own for a stock sample
            m.accept(new Sample(1000, 1, "GET /", "200", "OK", true, 5, 40, 1500, 1500));
            m.accept(new Sample(1001, 3, "GET /", "200", "OK", true, 6));
            m.accept(new Sample(1002, 0, "GET /x", "Non HTTP response code: java.net.ConnectException",
                    "Connection refused", false, 6));
            String text = scrape(m.port());
            assertTrue(text.contains("stampede_samples_total{label=\"GET /\"} 2.0"), text);
            assertTrue(text.contains("stampede_samples_total{label=\"GET /x\"} 1.0"), text);
            assertTrue(text.lines().anyMatch(l -> l.startsWith("stampede_errors_total{") && l.endsWith("} 1.0")
                    && l.contains("kind=\"connection refused\"") && l.contains("label=\"GET /x\"")), text);
            assertTrue(text.lines().noneMatch(l -> l.startsWith("stampede_errors_total{") && l.contains("GET /\"")),
                    "no errors for the label that had none: " + text);
            assertTrue(text.contains("stampede_latency_seconds_bucket{label=\"GET /\",le=\"0.001\"} 0"), text);
            assertTrue(text.contains("stampede_latency_seconds_bucket{label=\"GET /\",le=\"0.0025\"} 1"), text);
            assertTrue(text.contains("stampede_latency_seconds_bucket{label=\"GET /\",le=\"0.005\"} 2"), text);
            assertTrue(text.contains("stampede_latency_seconds_sum{label=\"GET /\"} 0.0045"), text);
            assertTrue(text.contains("stampede_active_threads 6.0"), text);
            assertTrue(text.contains("stampede_open_connections 40.0"), text);
            assertTrue(text.contains("stampede_injector_process_cpu_cores 0.75"), text);
            assertTrue(text.contains("stampede_injector_loop_lag_max_seconds 0.007"), text);
        }
    }
}
