/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.users;

import io.stampede.it.scale.ProcessMemory;
import io.stampede.it.support.JMeterHome;
import io.stampede.it.support.JMeterRun;
import io.stampede.it.support.Jtl;
import io.stampede.it.support.JtlFormat;
import io.stampede.it.support.LogFiles;
import io.stampede.it.support.NginxServer;
import io.stampede.jmeter.JavaRuntime;
import io.stampede.jmeter.JavaSelection;
import io.stampede.jmeter.VirtualUsersJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Stateful users at scale (issue 16), one nginx on 127.0.0.1 (login and step locations, no access log): the plan
 * it/bench/virtual-users-bench.jmx (login once, then step with the session cookie and the extracted value, think
 * time) with the Stampede Virtual User Thread Group and the engine-wide connection pool, then the same plan on
 * JMeter's standard Thread Group (OS threads) with as many users as asked, both on the same Java. For each: the
 * users that reached the loop, errors, requests/s while all users hold, heap after a full GC and RSS (per user,
 * above the JVM before its users started), OS threads, open sockets, and the virtual-thread pinning JFR saw.
 * Run it with it/bench/virtual-users-benchmark.sh.
 */
public final class VirtualUsersBenchmark {
    /**
     * Users start this long after JMeter: the "before" heap and class histogram (each a full GC, seconds on a busy
     * machine) must be read while no user exists yet, or the users already started are subtracted as JVM overhead.
     */
    private static final int START_DELAY_S = 20;

    private VirtualUsersBenchmark() {
    }

    record Row(String group, int users, long reachedLoop, long samples, long errors, double holdRate,
               ProcessMemory before, ProcessMemory held, long heldRssBeforeGc, long maxThreads, String pinned,
               String exit, Map<String, Long> failures, long heldUsers, double histogramBytesPerUser) {
        /**
         * Heap per user held at the measurement: the live JMeterThreads of the class histogram taken right after
         * it (a ramp-up that lags on a busy machine has fewer users than will reach the loop by the end).
         */
        double heapPerUserKb() {
            return (held.heapUsedBytes() - before.heapUsedBytes()) / 1024.0 / Math.max(1, divisor());
        }

        long divisor() {
            return heldUsers > 0 ? heldUsers : reachedLoop;
        }

        double rssPerUserKb() {
            return (held.rssBytes() - before.rssBytes()) / 1024.0 / Math.max(1, divisor());
        }

        /** RSS while the users run (read before the benchmark's full GC) above the JVM at 0 users, per user. */
        double runningRssPerUserKb() {
            return (heldRssBeforeGc - before.rssBytes()) / 1024.0 / Math.max(1, divisor());
        }

        /** The plain ratio: the whole process's RSS while the users run, divided by them. */
        double plainRssPerUserKb() {
            return heldRssBeforeGc / 1024.0 / Math.max(1, divisor());
        }
    }

    public static void main(String[] args) throws Exception {
        int users = intArg(args, "--users", 100_000);
        int rampUp = intArg(args, "--rampup", 100);
        int hold = intArg(args, "--hold", 120);
        int think = intArg(args, "--think-ms", 10_000);
        int pool = intArg(args, "--pool", 2000);
        int stockUsers = intArg(args, "--stock-users", 0);
        String heap = stringArg(args, "--heap", "6g");
        String only = stringArg(args, "--only", "both");
        int classic = intArg(args, "--classic", 0);
        List<String> extraJvm = List.of(stringArg(args, "--jvm", "").split(" ")).stream()
                .filter(o -> !o.isBlank()).toList();
        JavaRuntime java = JavaSelection.fromEnvironment(null).choose(true).runtime();
        JMeterHome home = JMeterHome.fromStampedeRoot().requirePlugin("stampede-plugins.jar");
        Path bench = JMeterHome.stampedeRoot().resolve("it/bench");
        Path work = Files.createTempDirectory("stampede-vu-bench-");
        System.out.printf(Locale.ROOT, "virtual users benchmark on %s: %,d users, ramp-up %d s, hold %d s, think %d "
                + "ms, pool %d, heap %s %s; stock Thread Group %,d users; %d cores, load average %s%n", java, users,
                rampUp, hold, think, pool, heap, extraJvm, stockUsers, Runtime.getRuntime().availableProcessors(),
                load());
        Set<Row> rows = new java.util.LinkedHashSet<>();
        try (NginxServer nginx = NginxServer.start(StatefulSite.options(0, false))) {
            if (classic > 0) {
                classic(home, java, nginx, work, bench, classic, intArg(args, "--rounds", 2));
                return;
            }
            if (!only.equals("stock")) {
                rows.add(run(home, java, nginx, work.resolve("vu"), "Stampede Virtual User TG",
                        bench.resolve("virtual-users-bench.jmx"), users, rampUp, hold, think, pool, heap, extraJvm,
                        true));
                printHeader();
                rows.forEach(VirtualUsersBenchmark::print);
            }
            if (stockUsers > 0 && !only.equals("vu")) {
                Thread.sleep(5000);
                rows.add(run(home, java, nginx, work.resolve("stock"), "JMeter Thread Group",
                        bench.resolve("virtual-users-bench-stock.jmx"), stockUsers, rampUp, hold, think, pool, heap,
                        extraJvm, false));
            }
        } finally {
            System.out.println("logs kept in " + work);
        }
        System.out.println();
        printHeader();
        rows.forEach(VirtualUsersBenchmark::print);
        rows.forEach(VirtualUsersBenchmark::printFailures);
    }

    /** The failed samples of a row by kind (label, response code, message with its numbers blanked), most first. */
    private static void printFailures(Row r) {
        if (r.failures.isEmpty()) {
            return;
        }
        System.out.printf("%nfailed samples of %s by kind (label | code | message):%n", r.group);
        r.failures.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(20)
                .forEach(e -> System.out.printf(Locale.ROOT, "  %,9d  %s%n", e.getValue(), e.getKey()));
    }

    private static void printHeader() {
        System.out.printf("| group | users asked | reached the loop | held at the measurement | samples | errors "
                + "| req/s (hold) | heap MB | heap KB/user | histogram KB/user "
                + "| RSS MB running (after full GC) | RSS KB/user running (after full GC) | plain RSS/users KB "
                + "| OS threads (max) | sockets | pinned (JFR) | end |%n");
        System.out.println("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    }

    private static void print(Row r) {
        {
            System.out.printf(Locale.ROOT, "| %s | %,d | %,d | %,d | %,d | %,d | %,.0f | %.0f | %.1f | %.1f "
                    + "| %.0f (%.0f) | %.1f (%.1f) "
                    + "| %.1f | %d (%d) | %d | %s | %s |%n", r.group, r.users, r.reachedLoop, r.divisor(), r.samples, r.errors,
                    r.holdRate, r.held.heapUsedBytes() / 1048576.0, r.heapPerUserKb(), r.histogramBytesPerUser / 1024,
                    r.heldRssBeforeGc / 1048576.0,
                    r.held.rssBytes() / 1048576.0, r.runningRssPerUserKb(), r.rssPerUserKb(), r.plainRssPerUserKb(),
                    r.held.threads(), r.maxThreads, r.held.sockets(), r.pinned, r.exit);
        }
    }

    private static Row run(JMeterHome home, JavaRuntime java, NginxServer nginx, Path dir, String group, Path plan,
                           int users, int rampUp, int hold, int think, int pool, String heap, List<String> extraJvm,
                           boolean jfr)
            throws Exception {
        Files.createDirectories(dir);
        Path recording = dir.resolve("run.jfr");
        // The same JVM options as `stampede run` gives JMeter for a plan with virtual users (the stock plan's group
        // gets them too: same JVM, only the thread group differs); --jvm options come last and win.
        List<String> jvm = new ArrayList<>(List.of("-Xms1g", "-Xmx" + heap, "-XX:+UseG1GC",
                "-XX:MaxGCPauseMillis=100"));
        jvm.addAll(VirtualUsersJvm.options(java));
        jvm.addAll(extraJvm);
        if (jfr) {
            // Every think time is a sleep of 10 s, which JFR's default settings record with its stack (10,000 a
            // second at 100,000 users): off, the pinning events are what the recording is for.
            jvm.add("-XX:StartFlightRecording:filename=" + recording
                    + ",settings=default,jdk.ThreadSleep#enabled=false");
        }
        JMeterRun.Running run = JMeterRun.of(home, plan, dir).java(java.home())
                .jvmOptions(jvm.toArray(String[]::new))
                .jtlFormat(JtlFormat.jmeterDefaults())
                .property("host", nginx.host()).property("port", nginx.port())
                .property("users", users).property("rampup", rampUp).property("hold", hold)
                .property("delay", START_DELAY_S)
                .property("loops", -1).property("think_ms", think)
                .property("stampede.connection_sharing", "engine").property("stampede.pool_size", pool)
                .property("jmeter.save.saveservice.autoflush", false)
                // 100,000 users write 200,000 "Thread started/finished" lines at INFO; keep the log to warnings.
                .logLevel("jmeter.threads", "WARN")
                .timeout(Duration.ofSeconds(START_DELAY_S + rampUp + hold + 240))
                .start();
        long pid = run.pid();
        LogFiles.awaitText(dir.resolve("jmeter.log"), "Starting", 120);
        ProcessMemory before = ProcessMemory.of(pid, java.home());
        Map<String, long[]> classesBefore = histogram(java, pid, dir.resolve("histogram-before.txt"));
        boolean nmt = jvm.stream().anyMatch(o -> o.startsWith("-XX:NativeMemoryTracking="));
        if (nmt) {
            jcmdTo(java, pid, "VM.native_memory baseline", null);
        }
        long started = System.currentTimeMillis();
        System.out.printf(Locale.ROOT, "  %-26s before: heap %.1f MB, RSS %.1f MB, %d threads%n", group,
                before.heapUsedBytes() / 1048576.0, before.rssBytes() / 1048576.0, before.threads());
        long measureAt = started + (START_DELAY_S + rampUp + hold / 2L) * 1000L;
        long maxThreads = before.threads();
        while (System.currentTimeMillis() < measureAt && run.isAlive()) {
            Thread.sleep(2000);
            maxThreads = Math.max(maxThreads, threads(pid));
        }
        long heldRss = run.isAlive() ? rss(pid) : 0;
        if (nmt && run.isAlive()) {
            // Where the resident bytes went since the users started, before the benchmark's full GC changes it.
            Path diff = dir.resolve("nmt-diff.txt");
            jcmdTo(java, pid, "VM.native_memory summary.diff scale=MB", diff);
            System.out.println("  " + group + " native memory since 0 users (NMT, MB; all in " + diff + "):");
            Files.readAllLines(diff).stream().filter(l -> l.matches("(Total|-\\s+\\S.*\\(reserved).*"))
                    .forEach(l -> System.out.println("    " + l.trim()));
        }
        ProcessMemory held = run.isAlive() ? ProcessMemory.of(pid, java.home()) : before;
        System.out.printf(Locale.ROOT, "  %-26s held:   heap %.1f MB, RSS %.1f MB running, %.1f MB after the full GC, "
                + "%d threads, %d sockets; load %s%n", group, held.heapUsedBytes() / 1048576.0, heldRss / 1048576.0,
                held.rssBytes() / 1048576.0, held.threads(), held.sockets(), load());
        double[] perUser = run.isAlive() ? perUser(classesBefore, histogram(java, pid, dir.resolve("histogram.txt")),
                dir.resolve("histogram.txt"), group) : new double[2];
        JMeterRun.Result result = run.await();
        String exit = result.timedOut() ? "killed (timeout)" : "exit " + result.exitCode();
        String log = Files.readString(dir.resolve("jmeter.log"));
        if (log.contains("OutOfMemoryError")) {
            exit += ", OutOfMemoryError: " + log.lines().filter(l -> l.contains("OutOfMemoryError")).findFirst()
                    .map(l -> l.substring(l.indexOf("OutOfMemoryError"))).orElse("");
        }
        Map<String, Long> inLoop = new HashMap<>();
        long[] counts = new long[3];
        // Response times of the hold window in 1-ms buckets (a JTL of a million users does not fit a list).
        long[] holdMillis = new long[60_001];
        Map<String, Long> failures = new HashMap<>();
        long holdFrom = started + (START_DELAY_S + rampUp) * 1000L + 10_000L;
        long holdTo = started + (START_DELAY_S + rampUp + hold) * 1000L - 5_000L;
        Jtl.scan(dir.resolve("jmeter.jtl"), row -> {
            counts[0]++;
            if (!row.success()) {
                counts[1]++;
                String message = row.responseMessage().replaceAll("[0-9]+", "N");
                failures.merge(row.label() + " | " + row.responseCode() + " | "
                        + message.substring(0, Math.min(140, message.length())), 1L, Long::sum);
            }
            if (row.label().equals("step")) {
                inLoop.merge(row.threadName(), row.timeStamp(), Math::min);
            }
            if (row.timeStamp() >= holdFrom && row.timeStamp() < holdTo) {
                counts[2]++;
                holdMillis[(int) Math.min(holdMillis.length - 1, Math.max(0, row.elapsed()))]++;
            }
        });
        // The JTL of 100,000 users is large: what it showed of failures is kept in failures.txt, beside the logs.
        Files.deleteIfExists(dir.resolve("jmeter.jtl"));
        StringBuilder kinds = new StringBuilder();
        failures.forEach((k, v) -> kinds.append(v).append('\t').append(k).append('\n'));
        Files.writeString(dir.resolve("failures.txt"), kinds);
        String pinned = jfr ? pinnedEvents(java, recording) : "-";
        long firstUser = started + START_DELAY_S * 1000L;
        System.out.printf(Locale.ROOT, "  %-26s ramp-up: the last of %,d users reached its loop %.1f s after the first "
                + "user's start (asked: %d s); response time in the hold window p50 %s ms, p99 %s ms, max %s ms%n",
                group, inLoop.size(), (inLoop.values().stream().mapToLong(Long::longValue).max().orElse(firstUser)
                        - firstUser) / 1000.0, rampUp, percentile(holdMillis, 0.50), percentile(holdMillis, 0.99),
                percentile(holdMillis, 1.0));
        return new Row(group, users, inLoop.size(), counts[0], counts[1],
                counts[2] * 1000.0 / Math.max(1, holdTo - holdFrom), before, held, heldRss, maxThreads, pinned, exit,
                failures, (long) perUser[0], perUser[1]);
    }

    /** The bucket (ms) holding the {@code q} quantile of the counts; the last bucket holds that or more. */
    private static String percentile(long[] buckets, double q) {
        long total = 0;
        for (long b : buckets) {
            total += b;
        }
        long rank = Math.max(1, (long) Math.ceil(q * total));
        long seen = 0;
        for (int ms = 0; ms < buckets.length; ms++) {
            seen += buckets[ms];
            if (seen >= rank) {
                return ms == buckets.length - 1 ? "≥ " + ms : Integer.toString(ms);
            }
        }
        return "-";
    }

    /**
     * The classic shape (plans/stepping-raw.jmx's load): 200 users, one keep-alive connection each, no think time,
     * HTTP RAW on virtual threads vs the same on OS threads (JMeter's Thread Group) vs stock JMeter's HTTP Request,
     * in alternating rounds of the same run: requests/s and CPU per request over the middle of each run.
     */
    private static void classic(JMeterHome home, JavaRuntime java, NginxServer nginx, Path work, Path bench,
                                int seconds, int rounds) throws Exception {
        Path plans = JMeterHome.stampedeRoot().resolve("it/src/test/resources/plans");
        String[][] rows = {
            {"HTTP RAW, Virtual User TG (virtual threads)", bench.resolve("classic-raw-virtual.jmx").toString()},
            {"HTTP RAW, JMeter Thread Group (OS threads)", plans.resolve("bench-raw.jmx").toString()},
            {"stock HTTP Request (HC4), JMeter Thread Group", plans.resolve("bench-stock-http.jmx").toString()}};
        System.out.println("| round | row | req/s | CPU us/request | errors |");
        System.out.println("|---|---|---|---|---|");
        for (int round = 1; round <= rounds; round++) {
            for (String[] row : rows) {
                Path dir = work.resolve("classic-" + round + "-" + Math.abs(row[0].hashCode()));
                Files.createDirectories(dir);
                JMeterRun.Running run = JMeterRun.of(home, Path.of(row[1]), dir).java(java.home())
                        .jvmOptions("-Xms1g", "-Xmx1g", "-XX:+UseG1GC")
                        .jtlFormat(JtlFormat.jmeterDefaults())
                        .property("host", nginx.host()).property("port", nginx.port())
                        .property("threads", 200).property("duration", seconds)
                        .property("summariser.name", "")
                        .timeout(Duration.ofSeconds(seconds + 120))
                        .start();
                LogFiles.awaitText(dir.resolve("jmeter.log"), "Starting", 120);
                Thread.sleep(seconds * 250L);
                long from = System.currentTimeMillis();
                long cpu0 = cpuTicks(run.pid());
                Thread.sleep(seconds * 500L);
                long cpu1 = cpuTicks(run.pid());
                long to = System.currentTimeMillis();
                JMeterRun.Result r = run.await();
                long[] c = new long[2];
                Jtl.scan(r.jtl(), x -> {
                    if (x.timeStamp() >= from && x.timeStamp() < to) {
                        c[0]++;
                        if (!x.success()) {
                            c[1]++;
                        }
                    }
                });
                Files.deleteIfExists(r.jtl());
                double rate = c[0] * 1000.0 / (to - from);
                double usPerRequest = (cpu1 - cpu0) * 10_000.0 / Math.max(1, c[0]);
                System.out.printf(Locale.ROOT, "| %d | %s | %,.0f | %.1f | %d |%n", round, row[0], rate, usPerRequest,
                        c[1]);
                Thread.sleep(3000);
            }
        }
    }

    /** A class histogram (jcmd GC.class_histogram: live objects, after a full GC): class → {objects, bytes}. */
    private static Map<String, long[]> histogram(JavaRuntime java, long pid, Path file) throws Exception {
        Process p = new ProcessBuilder(java.home().resolve("bin/jcmd").toString(), Long.toString(pid),
                "GC.class_histogram").redirectErrorStream(true).redirectOutput(file.toFile()).start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            System.out.println("  (no class histogram: jcmd took over 120 s)");
            return Map.of();
        }
        Map<String, long[]> classes = new HashMap<>();
        Files.readAllLines(file).stream().filter(l -> l.matches("\\s*\\d+:.*")).map(l -> l.trim().split("\\s+"))
                .filter(f -> f.length >= 4)
                .forEach(f -> classes.put(f[3], new long[] {Long.parseLong(f[1]), Long.parseLong(f[2])}));
        return classes;
    }

    /**
     * What the held users are made of: the class histogram while they hold minus the one before the first user,
     * per held user (the live JMeterThreads), its top rows and total printed. Returns {users held, total bytes per
     * user}; users 0 when a histogram could not be taken.
     */
    private static double[] perUser(Map<String, long[]> before, Map<String, long[]> held, Path file, String group) {
        String thread = "org.apache.jmeter.threads.JMeterThread";
        long users = held.getOrDefault(thread, new long[2])[0];
        // Users start as soon as JMeter does: the first histogram may already hold a few.
        long early = before.getOrDefault(thread, new long[2])[0];
        if (users <= early || before.isEmpty()) {
            return new double[] {users, 0};
        }
        double per = users - early;
        Map<String, double[]> diff = new HashMap<>();
        held.forEach((k, v) -> {
            long[] b = before.getOrDefault(k, new long[2]);
            diff.put(k, new double[] {(v[0] - b[0]) / per, (v[1] - b[1]) / per});
        });
        before.forEach((k, b) -> diff.putIfAbsent(k, new double[] {-b[0] / per, -b[1] / per}));
        double total = diff.values().stream().mapToDouble(d -> d[1]).sum();
        System.out.printf(Locale.ROOT, "  %s class histogram while holding minus before the first user, per held "
                + "user (%,d live JMeterThreads, %,d of them before): %.0f bytes; all in %s%n", group, users, early,
                total, file);
        System.out.println("    | class | objects/user | bytes/user |");
        System.out.println("    |---|---|---|");
        diff.entrySet().stream().sorted((x, y) -> Double.compare(y.getValue()[1], x.getValue()[1])).limit(40)
                .forEach(e -> System.out.printf(Locale.ROOT, "    | %s | %.2f | %.0f |%n", e.getKey(),
                        e.getValue()[0], e.getValue()[1]));
        return new double[] {users, total};
    }

    /** Runs a jcmd command on the JVM, its output into {@code file} (or dropped when null). */
    private static void jcmdTo(JavaRuntime java, long pid, String command, Path file) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(java.home().resolve("bin/jcmd").toString(), Long.toString(pid)));
        cmd.addAll(List.of(command.split(" ")));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.redirectOutput(file == null ? ProcessBuilder.Redirect.DISCARD : ProcessBuilder.Redirect.to(file.toFile()));
        Process p = pb.start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
        }
    }

    /** The process's resident memory now (VmRSS). */
    private static long rss(long pid) throws java.io.IOException {
        return Files.readAllLines(Path.of("/proc", Long.toString(pid), "status")).stream()
                .filter(l -> l.startsWith("VmRSS:")).mapToLong(l -> Long.parseLong(l.split("\\s+")[1]) * 1024)
                .findFirst().orElse(0);
    }

    /** utime + stime of a process, in clock ticks (1/100 s). */
    private static long cpuTicks(long pid) throws java.io.IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }

    /** How many jdk.VirtualThreadPinned events (a virtual thread blocked 20 ms+ while pinned) the run recorded. */
    private static String pinnedEvents(JavaRuntime java, Path recording) throws Exception {
        if (!Files.exists(recording)) {
            return "no recording";
        }
        Process p = new ProcessBuilder(java.home().resolve("bin/jfr").toString(), "summary", recording.toString())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        p.waitFor();
        return out.lines().filter(l -> l.trim().startsWith("jdk.VirtualThreadPinned ")).findFirst()
                .map(l -> l.trim().split("\\s+")[1]).orElse("0");
    }

    private static long threads(long pid) {
        try {
            return Files.readAllLines(Path.of("/proc", Long.toString(pid), "status")).stream()
                    .filter(l -> l.startsWith("Threads:")).mapToLong(l -> Long.parseLong(l.split("\\s+")[1]))
                    .findFirst().orElse(0);
        } catch (java.io.IOException e) {
            return 0;
        }
    }

    private static String load() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (java.io.IOException e) {
            return "?";
        }
    }

    private static int intArg(String[] args, String name, int dflt) {
        String v = stringArg(args, name, null);
        return v == null ? dflt : Integer.parseInt(v);
    }

    private static String stringArg(String[] args, String name, String dflt) {
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals(name)) {
                return args[i + 1];
            }
        }
        return dflt;
    }
}
