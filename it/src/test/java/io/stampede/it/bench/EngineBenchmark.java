/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.bench;

import io.stampede.it.support.HttpExchange;
import io.stampede.it.support.JMeterHome;
import io.stampede.it.support.NginxServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Requests/s and load-generator CPU per request for stock JMeter (HttpClient4), the Stampede HTTP RAW and HTTP
 * samplers and wrk, one after the other against one nginx (1 worker, 18-byte file, no access log) on loopback.
 * Not a test: it prints figures. Run it with it/bench/engine-benchmark.sh.
 */
public final class EngineBenchmark {

    static final String STOCK = "JMeter HTTP (HC4)";
    static final String RAW = "Stampede HTTP RAW";
    static final String HTTP = "Stampede HTTP";
    /** The same 200 connections held by one JMeter thread per core (stampede.connections_per_thread, issue 5). */
    static final String RAW_MULTI = "Stampede RAW, C/thread";
    static final String WRK = "wrk";

    private EngineBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        BenchOptions options;
        try {
            options = BenchOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("engine-benchmark: " + e.getMessage());
            System.exit(2);
            return;
        }
        JMeterHome home = JMeterHome.fromStampedeRoot().requirePlugin("stampede-plugins.jar");
        Path work = Files.createTempDirectory("stampede-bench-");
        CpuTimes cpu = CpuTimes.linux();
        System.out.printf("engine benchmark: %d connections, %d s per tool, figures over the %d s after a %d s warm-up"
                + "%n%d cores, load average before: %s%n", options.connections(), options.durationSeconds(),
                options.measuredSeconds(), options.warmupSeconds(), Runtime.getRuntime().availableProcessors(),
                CpuTimes.loadAverage());
        List<Measurement> rows = new ArrayList<>();
        try (NginxServer nginx = NginxServer.start(NginxServer.Options.defaults())) {
            HttpExchange probe = HttpExchange.send(nginx.host(), nginx.port(),
                    "GET /test.txt HTTP/1.1\r\nHost: " + nginx.host() + "\r\n\r\n");
            System.out.printf("nginx on %s (1 worker, access log off), /test.txt answer: %d bytes%n%n",
                    nginx.url("/"), probe.totalBytes());
            JMeterLoad jmeter = new JMeterLoad(home, nginx, cpu, options, work);
            for (BenchOptions.Tool tool : options.tools()) {
                Measurement m = switch (tool) {
                    case STOCK -> jmeter.measure(STOCK, "bench-stock-http.jmx");
                    case RAW -> jmeter.measure(RAW, "bench-raw.jmx");
                    case RAW_MULTI -> jmeter.measure(RAW_MULTI, "scale-throughput.jmx", "raw-multi",
                            java.util.Map.of("threads", coreThreads(), "conns", options.connections() / coreThreads()));
                    case HTTP -> jmeter.measure(HTTP, "bench-http.jmx");
                    case WRK -> new WrkLoad(nginx, cpu, options, work.resolve("wrk")).measure();
                };
                System.out.printf("  %-20s %10.0f req/s  %5.2f cores  %6.1f us/req  errors %d  (other load %.2f"
                        + " cores, load average %s)%n", m.tool(), m.requestsPerSecond(), m.cores(),
                        m.cpuMicrosPerRequest(), m.errors(), m.otherCores(), CpuTimes.loadAverage());
                rows.add(m);
            }
        } finally {
            deleteJtls(work);
        }
        System.out.println();
        new BenchReport(rows).print(System.out);
    }

    private static int coreThreads() {
        return Math.max(1, Runtime.getRuntime().availableProcessors());
    }

    /** JTLs of a full run are gigabytes; keep only logs, in case a figure needs explaining. */
    private static void deleteJtls(Path work) throws java.io.IOException {
        try (var files = Files.walk(work)) {
            files.filter(p -> p.toString().endsWith(".jtl")).forEach(p -> p.toFile().delete());
        }
        System.out.println("logs kept in " + work);
    }
}
