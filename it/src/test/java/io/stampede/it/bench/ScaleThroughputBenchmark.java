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
 * the same run, with the CSV JTL written, with the thread's own I/O (the default) and with the engine's
 * (stampede.io_mode=engine), each round followed by wrk; before them HTTP RAW at one connection per thread. Prints the
 * table, the ratios to wrk per round and their median. Run it with it/bench/scale-benchmark.sh throughput.
 */
public final class ScaleThroughputBenchmark {

    static final String PLAN = "scale-throughput.jmx";

    private ScaleThroughputBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        BenchOptions options;
        int pipeline = 1;
        int rounds = 3;
        int threads = Math.max(1, Runtime.getRuntime().availableProcessors());
        List<String> rest = new ArrayList<>();
        try {
            for (int i = 0; i < args.length; i++) {
                if (args[i].equals("--pipeline") && i + 1 < args.length) {
                    pipeline = positive("--pipeline", args[++i]);
                } else if (args[i].equals("--rounds") && i + 1 < args.length) {
                    rounds = positive("--rounds", args[++i]);
                } else if (args[i].equals("--threads") && i + 1 < args.length) {
                    threads = positive("--threads", args[++i]);
                } else {
                    rest.add(args[i]);
                }
            }
            options = BenchOptions.parse(rest.toArray(String[]::new));
        } catch (IllegalArgumentException e) {
            System.err.println("scale-throughput-benchmark: " + e.getMessage());
            System.exit(2);
            return;
        }
        int perThread = Math.max(1, options.connections() / threads);
        JMeterHome home = JMeterHome.fromStampedeRoot().requirePlugin("stampede-plugins.jar");
        Path work = Files.createTempDirectory("stampede-scale-bench-");
        CpuTimes cpu = CpuTimes.linux();
        System.out.printf("scale throughput benchmark: %d connections, %d s per row, figures over the %d s after a"
                + " %d s warm-up; %d rounds of (thread I/O, engine I/O, wrk) so that each ratio to wrk compares"
                + " neighbours in time%n%d cores, load average before: %s%n", options.connections(),
                options.durationSeconds(), options.measuredSeconds(), options.warmupSeconds(), rounds,
                Runtime.getRuntime().availableProcessors(), CpuTimes.loadAverage());
        List<Measurement> rows = new ArrayList<>();
        List<double[]> ratios = new ArrayList<>();
        String multi = "Stampede RAW " + threads + "x" + perThread;
        String engineIo = multi + " engine I/O";
        String piped = multi + " pipe " + pipeline;
        Map<String, Object> group = Map.of("threads", threads, "conns", perThread);
        try (NginxServer nginx = NginxServer.start(NginxServer.Options.defaults())) {
            JMeterLoad jmeter = new JMeterLoad(home, nginx, cpu, options, work);
            rows.add(print(jmeter.measure("Stampede RAW 1 conn/thr", PLAN, "raw-1", Map.of("conns", 1))));
            for (int r = 1; r <= rounds; r++) {
                Measurement own = print(jmeter.measure(multi, PLAN, "raw-multi-" + r, group));
                Measurement shared = print(jmeter.measure(engineIo, PLAN, "raw-multi-engine-" + r,
                        with(group, "stampede.io_mode", "engine")));
                Measurement wrk = print(new WrkLoad(nginx, cpu, options, work.resolve("wrk-" + r)).measure());
                rows.add(own);
                rows.add(shared);
                rows.add(wrk);
                ratios.add(new double[] {own.requestsPerSecond() / wrk.requestsPerSecond(),
                        own.cpuMicrosPerRequest() / wrk.cpuMicrosPerRequest(),
                        shared.requestsPerSecond() / wrk.requestsPerSecond(),
                        shared.cpuMicrosPerRequest() / wrk.cpuMicrosPerRequest()});
            }
            if (pipeline > 1) {
                rows.add(print(jmeter.measure(piped, PLAN, "raw-pipelined", with(group, "pipeline_depth", pipeline))));
                rows.add(print(new WrkLoad(nginx, cpu, options, work.resolve("wrk-pipe")).measure()));
            }
        } finally {
            try (var files = Files.walk(work)) {
                files.filter(p -> p.toString().endsWith(".jtl")).forEach(p -> p.toFile().delete());
            }
            System.out.println("logs kept in " + work);
        }
        System.out.println();
        PrintStream out = System.out;
        new BenchReport(rows).print(out);
        out.println();
        for (int r = 0; r < ratios.size(); r++) {
            double[] x = ratios.get(r);
            out.printf("round %d: %-26s / wrk  req/s x%.2f   CPU per request x%.2f%n", r + 1, multi, x[0], x[1]);
            out.printf("round %d: %-26s / wrk  req/s x%.2f   CPU per request x%.2f%n", r + 1, engineIo, x[2], x[3]);
        }
        out.printf("median of %d rounds: %s / wrk req/s x%.2f (CPU per request x%.2f); %s / wrk req/s x%.2f (CPU per"
                + " request x%.2f)%n", ratios.size(), multi, median(ratios, 0), median(ratios, 1), engineIo,
                median(ratios, 2), median(ratios, 3));
        if (pipeline > 1) {
            Measurement p = rows.get(rows.size() - 2);
            Measurement w = rows.get(rows.size() - 1);
            out.printf("%s / wrk (next to it)  req/s x%.2f   CPU per request x%.2f%n", piped,
                    p.requestsPerSecond() / w.requestsPerSecond(), p.cpuMicrosPerRequest() / w.cpuMicrosPerRequest());
        }
    }

    /** {@code base} with one more property. */
    private static Map<String, Object> with(Map<String, Object> base, String name, Object value) {
        Map<String, Object> m = new java.util.HashMap<>(base);
        m.put(name, value);
        return m;
    }

    private static double median(List<double[]> rows, int column) {
        double[] v = rows.stream().mapToDouble(r -> r[column]).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    private static int positive(String option, String value) {
        try {
            int n = Integer.parseInt(value);
            if (n >= 1) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(option + " wants a whole number of at least 1, got '" + value + "'");
    }

    private static Measurement print(Measurement m) {
        System.out.printf("  %-30s %10.0f req/s  %5.2f cores  %6.1f us/req  errors %d  (other load %.2f cores, load"
                + " average %s)%n", m.tool(), m.requestsPerSecond(), m.cores(), m.cpuMicrosPerRequest(), m.errors(),
                m.otherCores(), CpuTimes.loadAverage());
        return m;
    }
}
