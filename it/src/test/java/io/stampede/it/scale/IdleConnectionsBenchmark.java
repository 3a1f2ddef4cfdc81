/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.scale;

import io.stampede.it.support.JMeterHome;
import io.stampede.it.support.JMeterRun;
import io.stampede.it.support.Jtl;
import io.stampede.it.support.LogFiles;
import io.stampede.it.support.NginxServer;
import io.stampede.it.support.Plans;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Held keep-alive connections, one JMeter engine each, in one run against one nginx (4 workers, reuseport):
 * Stampede's HTTP RAW sampler with {@code threads} JMeter threads keeping {@code connections} connections open,
 * each paced to one request every {@code pacing} ms, then stock JMeter (HttpClient4) with one thread per connection
 * and the same pacing (Constant Timer). For each: heap after a full GC and RSS, before the threads start and once
 * every connection is up and has sent a few requests; per connection = the difference / connections. Prints a
 * table. Run it with it/bench/scale-benchmark.sh idle.
 */
public final class IdleConnectionsBenchmark {

    private static final int DELAY_S = 8;

    private IdleConnectionsBenchmark() {
    }

    record Row(String tool, int threadsInPlan, int connections, ProcessMemory before, ProcessMemory held,
               long samples, long errors, double seconds) {
        double heapPerConnKb() {
            return (held.heapUsedBytes() - before.heapUsedBytes()) / 1024.0 / connections;
        }

        double rssPerConnKb() {
            return (held.rssBytes() - before.rssBytes()) / 1024.0 / connections;
        }
    }

    public static void main(String[] args) throws Exception {
        int connections = intArg(args, "--connections", 19_000);
        int threads = intArg(args, "--threads", 10);
        int stockThreads = intArg(args, "--stock-threads", 2_000);
        int pacing = intArg(args, "--pacing-ms", 10_000);
        int hold = intArg(args, "--hold", 30);
        if (threads > 16 || connections % threads != 0) {
            System.err.println("scale-idle-benchmark: --threads must be at most 16 and divide --connections");
            System.exit(2);
        }
        JMeterHome home = JMeterHome.fromStampedeRoot().requirePlugin("stampede-plugins.jar");
        Path work = Files.createTempDirectory("stampede-idle-bench-");
        System.out.printf(Locale.ROOT, "idle connections benchmark: Stampede %,d connections on %d threads vs stock "
                + "JMeter %,d threads; one request per connection every %d ms; hold %d s%n%d cores, load average: %s"
                + "%n", connections, threads, stockThreads, pacing, hold, Runtime.getRuntime().availableProcessors(),
                loadAverage());
        List<Row> rows = new ArrayList<>();
        try (NginxServer nginx = NginxServer.start(NginxServer.Options.defaults().withWorkers(4))) {
            rows.add(measure(home, nginx, work.resolve("stampede"), "Stampede RAW (paced)", "scale-throughput.jmx",
                    threads, connections, pacing, hold, Map.of("conns", connections / threads, "pacing_ms", pacing),
                    List.of("-Xms256m", "-Xmx1g")));
            System.out.println("  waiting 5 s for the closed connections to settle; load average " + loadAverage());
            Thread.sleep(5000);
            rows.add(measure(home, nginx, work.resolve("stock"), "JMeter HTTP (HC4)", "scale-idle-stock.jmx",
                    stockThreads, stockThreads, pacing, hold, Map.of("pacing_ms", pacing),
                    List.of("-Xms256m", "-Xmx1g", "-Xss256k")));
        } finally {
            System.out.println("logs kept in " + work);
        }
        print(rows);
    }

    private static Row measure(JMeterHome home, NginxServer nginx, Path dir, String tool, String plan, int threads,
                               int connections, int pacing, int hold, Map<String, ?> props, List<String> jvm)
            throws Exception {
        int ramp = 10;
        int upTimeout = ramp + pacing / 1000 + 90;
        int duration = ramp + pacing / 1000 + upTimeout + hold + 30;
        JMeterRun.Running run = JMeterRun.of(home, Plans.get(plan), dir)
                .jvmOptions(jvm.toArray(String[]::new))
                .jtlFormat(io.stampede.it.support.JtlFormat.jmeterDefaults())
                .property("host", nginx.host())
                .property("port", nginx.port())
                .property("threads", threads)
                .property("delay", DELAY_S)
                .property("rampup", ramp)
                .property("duration", duration)
                .properties(props)
                // Counted rows must reach the file before JMeter is stopped.
                .property("jmeter.save.saveservice.autoflush", true)
                .timeout(Duration.ofSeconds(DELAY_S + duration + 120))
                .start();
        long pid = run.pid();
        LogFiles.awaitText(dir.resolve("jmeter.log"), "Starting ThreadGroup", 90);
        ProcessMemory before = ProcessMemory.of(pid);
        System.out.printf(Locale.ROOT, "  %-22s before: heap %.1f MB, RSS %.1f MB, %d threads, %d sockets%n", tool,
                mb(before.heapUsedBytes()), mb(before.rssBytes()), before.threads(), before.sockets());
        long deadline = System.nanoTime() + upTimeout * 1_000_000_000L;
        int open;
        while ((open = ProcessMemory.sockets(pid)) < connections && System.nanoTime() < deadline && run.isAlive()) {
            Thread.sleep(1000);
        }
        if (open < connections) {
            System.out.printf("  %s: only %d of %d connections open after %d s%n", tool, open, connections, upTimeout);
        }
        long heldFrom = System.currentTimeMillis();
        Thread.sleep(hold * 1000L);
        ProcessMemory held = ProcessMemory.of(pid);
        long heldTo = System.currentTimeMillis();
        System.out.printf(Locale.ROOT, "  %-22s held:   heap %.1f MB, RSS %.1f MB, %d threads, %d sockets; load "
                + "average %s%n", tool, mb(held.heapUsedBytes()), mb(held.rssBytes()), held.threads(), held.sockets(),
                loadAverage());
        stop(run);
        long[] counts = new long[2];
        Jtl.scan(dir.resolve("jmeter.jtl"), row -> {
            if (row.timeStamp() >= heldFrom && row.timeStamp() < heldTo) {
                counts[0]++;
                if (!row.success()) {
                    counts[1]++;
                }
            }
        });
        long allErrors = Jtl.read(dir.resolve("jmeter.jtl")).errors();
        if (allErrors > counts[1]) {
            System.out.printf("  note: %s had %d failed samples in all (outside the held window too)%n", tool,
                    allErrors);
        }
        Files.deleteIfExists(dir.resolve("jmeter.jtl"));
        return new Row(tool, threads, held.sockets(), before, held, counts[0], allErrors, (heldTo - heldFrom) / 1000.0);
    }

    /** Ends the run once measured (SIGTERM; the JTL is flushed row by row). */
    private static void stop(JMeterRun.Running run) throws Exception {
        ProcessHandle.of(run.pid()).ifPresent(ProcessHandle::destroy);
        JMeterRun.Result r = run.await();
        if (r.timedOut()) {
            System.out.println("  JMeter had to be killed");
        }
    }

    private static void print(List<Row> rows) {
        System.out.println();
        System.out.printf("%-22s %8s %12s %9s %14s %10s %14s %11s %9s %8s%n", "tool", "threads", "connections",
                "heap MB", "heap KB/conn", "RSS MB", "RSS KB/conn", "OS threads", "req/s", "errors");
        for (Row r : rows) {
            System.out.printf(Locale.ROOT, "%-22s %8d %12d %9.1f %14.2f %10.1f %14.2f %11d %9.0f %8d%n", r.tool(),
                    r.threadsInPlan(), r.connections(), mb(r.held().heapUsedBytes()), r.heapPerConnKb(),
                    mb(r.held().rssBytes()), r.rssPerConnKb(), r.held().threads(), r.samples() / r.seconds(),
                    r.errors());
        }
        if (rows.size() == 2) {
            Row s = rows.get(0);
            Row j = rows.get(1);
            System.out.printf(Locale.ROOT, "%nper connection, Stampede / stock JMeter: heap x%.3f, RSS x%.3f; OS threads "
                    + "per connection %.4f vs %.4f%n", s.heapPerConnKb() / j.heapPerConnKb(),
                    s.rssPerConnKb() / j.rssPerConnKb(), s.held().threads() / (double) s.connections(),
                    j.held().threads() / (double) j.connections());
        }
    }

    private static double mb(long bytes) {
        return bytes / 1024.0 / 1024.0;
    }

    private static int intArg(String[] args, String name, int dflt) {
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals(name)) {
                return Integer.parseInt(args[i + 1]);
            }
        }
        return dflt;
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (java.io.IOException e) {
            return "unknown";
        }
    }
}
