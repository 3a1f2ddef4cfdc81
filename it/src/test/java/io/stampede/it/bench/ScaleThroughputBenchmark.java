/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.bench;

import io.stampede.it.support.JMeterHome;
import io.stampede.it.support.NginxServer;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The engine benchmark's rows for connections per thread (issue 5): the same total connections as wrk, held by
 * one JMeter thread per core (stampede.connections_per_thread = connections / threads), against the same nginx in
 * the same run, with the CSV JTL written; next to HTTP RAW at one connection per thread and wrk. Prints the table
 * and the ratios to wrk. Run it with it/bench/scale-benchmark.sh throughput.
 */
public final class ScaleThroughputBenchmark {

    static final String PLAN = "scale-throughput.jmx";

    private ScaleThroughputBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        BenchOptions options;
        int pipeline = 1;
        List<String> rest = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--pipeline") && i + 1 < args.length) {
                pipeline = Integer.parseInt(args[++i]);
            } else {
                rest.add(args[i]);
            }
        }
        try {
            options = BenchOptions.parse(rest.toArray(String[]::new));
        } catch (IllegalArgumentException e) {
            System.err.println("scale-throughput-benchmark: " + e.getMessage());
            System.exit(2);
            return;
        }
        int threads = Math.max(1, Runtime.getRuntime().availableProcessors());
        int perThread = Math.max(1, options.connections() / threads);
        JMeterHome home = JMeterHome.fromStampedeRoot().requirePlugin("stampede-plugins.jar");
        Path work = Files.createTempDirectory("stampede-scale-bench-");
        CpuTimes cpu = CpuTimes.linux();
        System.out.printf("scale throughput benchmark: %d connections, %d s per tool, figures over the %d s after a"
                + " %d s warm-up%n%d cores, load average before: %s%n", options.connections(),
                options.durationSeconds(), options.measuredSeconds(), options.warmupSeconds(),
                Runtime.getRuntime().availableProcessors(), CpuTimes.loadAverage());
        List<Measurement> rows = new ArrayList<>();
        String multi = "Stampede RAW " + threads + "x" + perThread;
        String piped = "Stampede RAW " + threads + "x" + perThread + " pipe " + pipeline;
        try (NginxServer nginx = NginxServer.start(NginxServer.Options.defaults())) {
            JMeterLoad jmeter = new JMeterLoad(home, nginx, cpu, options, work);
            rows.add(print(jmeter.measure("Stampede RAW 1 conn/thr", PLAN, "raw-1",
                    Map.of("conns", 1))));
            rows.add(print(jmeter.measure(multi, PLAN, "raw-multi",
                    Map.of("threads", threads, "conns", perThread))));
            if (pipeline > 1) {
                rows.add(print(jmeter.measure(piped, PLAN, "raw-pipelined",
                        Map.of("threads", threads, "conns", perThread, "pipeline_depth", pipeline))));
            }
            rows.add(print(new WrkLoad(nginx, cpu, options, work.resolve("wrk")).measure()));
        } finally {
            try (var files = Files.walk(work)) {
                files.filter(p -> p.toString().endsWith(".jtl")).forEach(p -> p.toFile().delete());
            }
            System.out.println("logs kept in " + work);
        }
        System.out.println();
        PrintStream out = System.out;
        new BenchReport(rows).print(out);
        Measurement wrk = rows.get(rows.size() - 1);
        for (Measurement m : rows.subList(0, rows.size() - 1)) {
            out.printf("%-30s / wrk  req/s x%.2f   CPU per request x%.2f%n", m.tool(),
                    m.requestsPerSecond() / wrk.requestsPerSecond(), m.cpuMicrosPerRequest() / wrk.cpuMicrosPerRequest());
        }
    }

    private static Measurement print(Measurement m) {
        System.out.printf("  %-30s %10.0f req/s  %5.2f cores  %6.1f us/req  errors %d  (other load %.2f cores, load"
                + " average %s)%n", m.tool(), m.requestsPerSecond(), m.cores(), m.cpuMicrosPerRequest(), m.errors(),
                m.otherCores(), CpuTimes.loadAverage());
        return m;
    }
}
