/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.bench;

import io.stampede.it.support.FreePort;
import io.stampede.it.support.JMeterHome;
import io.stampede.it.support.JMeterRun;
import io.stampede.it.support.NginxServer;
import io.stampede.it.support.Plans;
import io.stampede.it.support.ProcessTrees;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * HTTP/2 benchmark (issue 15): the Stampede RAW sampler over h2c and h2 against h2load (Debian's nghttp2-client),
 * same nginx (1 worker, access log off, 18-byte file, keepalive_requests very high), same connections x streams,
 * rounds alternating which tool goes first. Prints req/s, load-generator CPU per request, errors, each round's
 * ratio and the weakest. Not a test; run it with it/bench/h2-benchmark.sh.
 *
 * <p>Setups: {@code h2c-10x20} is h2load {@code -c 10 -m 20 -t 2} against 2 JMeter threads x 5 connections x 20
 * streams (one thread per core each); {@code h2c-10x20@1} gives both tools 1 thread (the shape that fits a 2-core
 * machine that also runs nginx's worker); {@code h2c-1x100} is {@code -c 1 -m 100 -t 1} against 1 thread x 1 x 100;
 * {@code h1-10x20} is HTTP/1.1 pipelining, {@code h2load --h1 -c 10 -m 20 -t 2} against 2 threads x 5 connections
 * pipelined 20 deep ({@code stampede.pipeline_depth}); {@code h1s-10x20} is the same over TLS (h2load offering
 * http/1.1 in ALPN, Stampede's HTTP/1.1 TLS, both against nginx's TLS server).
 *
 * <p>{@code --ab NAME=VALUE} adds a second Stampede row to every round, with that JMeter property set (e.g.
 * {@code stampede.io_mode=engine}), or that system property for a name written {@code -Dname} (e.g.
 * {@code -Dio.stampede.shaded.io.netty.handler.ssl.noOpenSsl=true}): an A/B of one setting in the same call, each
 * side against the same round's h2load, the three rows rotating which goes first. A setting written {@code -X...}
 * is a JVM option of the B row's JMeter (e.g. {@code -Xmn24m}).
 */
public final class Http2Benchmark {
    private static final Pattern REQUESTS = Pattern.compile(
            "requests: (\\d+) total, (\\d+) started, (\\d+) done, (\\d+) succeeded, (\\d+) failed, (\\d+) errored, "
            + "(\\d+) timeout");
    /** One --ab setting: a JMeter property, a system property (-DNAME=VALUE) or a JVM option (-X...). */
    private static final String AB_SETTING = "((-D)?[\\w.]+=[^,\\s]+|-X[^,\\s]+)";
    private static final Pattern FINISHED = Pattern.compile("finished in ([0-9.]+)s");
    private static final Pattern CHILD_CPU = Pattern.compile("CHILD_CPU_TICKS (\\d+) (\\d+)");
    private static final String WRAPPER = "h2load \"$@\"; rc=$?; read -r -a s < /proc/$$/stat;"
            + " echo \"CHILD_CPU_TICKS ${s[15]} ${s[16]}\"; exit $rc";

    /**
     * {@code h2c-10x20}: protocol, connections x streams; {@code h1-10x20} is HTTP/1.1 pipelined 20 deep, {@code h1s}
     * the same over TLS.
     */
    private record Setup(String name, String protocol, int connections, int streams, int threads) {
        static Setup parse(String s) {
            String[] p = s.split("-");
            if (p.length != 2 || !List.of("h1", "h1s", "h2c", "h2").contains(p[0])
                    || !p[1].matches("\\d+x\\d+(@\\d+)?")) {
                throw new IllegalArgumentException("--setups: '" + s + "' is not PROTOCOL-CONNSxSTREAMS[@THREADS] with "
                        + "PROTOCOL h1 (HTTP/1.1 pipelined), h1s (the same over TLS), h2c or h2, e.g. h2c-10x20 or "
                        + "h2c-10x20@1");
            }
            String[] ct = p[1].split("@");
            String[] cm = ct[0].split("x");
            int c = Integer.parseInt(cm[0]);
            int threads = ct.length == 2 ? Integer.parseInt(ct[1]) : Math.min(2, c);
            if (threads < 1 || c % threads != 0) {
                throw new IllegalArgumentException("--setups: '" + s + "': THREADS must be 1 or more and divide the "
                        + c + " connections (each thread owns the same number)");
            }
            return new Setup(s, p[0], c, Integer.parseInt(cm[1]), threads);
        }

        boolean tls() {
            return protocol.equals("h2") || protocol.equals("h1s");
        }

        boolean http1() {
            return protocol.startsWith("h1");
        }
    }

    private Http2Benchmark() {
    }

    public static void main(String[] args) throws Exception {
        // JMeter's JIT is still compiling 5 s into a run (C2 held 17 % of the JMeter process's CPU samples in seconds
        // 5-25 here, 0.5 % after 25 s): the default window starts at 15 s, as the other benchmarks' do.
        int duration = 45;
        int warmup = 15;
        int rounds = 2;
        Path profile = null;
        String ab = null;
        double turns = 0;
        List<Setup> setups = new ArrayList<>();
        for (int i = 0; i < args.length; i += 2) {
            switch (args[i]) {
                case "--duration" -> duration = Integer.parseInt(args[i + 1]);
                case "--warmup" -> warmup = Integer.parseInt(args[i + 1]);
                case "--rounds" -> rounds = Integer.parseInt(args[i + 1]);
                case "--profile" -> profile = Path.of(args[i + 1]).toAbsolutePath();
                case "--turns" -> {
                    turns = args[i + 1].matches("\\d+(\\.\\d+)?") ? Double.parseDouble(args[i + 1]) : -1;
                    if (turns < 1 || turns > 7) {
                        // A stopped JMeter must come back before its streams' 10-s response timeout.
                        System.err.println("h2-benchmark: --turns takes a slice of 1 to 7 seconds");
                        System.exit(2);
                    }
                }
                case "--ab" -> {
                    ab = args[i + 1];
                    if (!ab.matches(AB_SETTING + "(," + AB_SETTING + ")*")) {
                        System.err.println("h2-benchmark: --ab takes NAME=VALUE[,NAME=VALUE...], JMeter properties "
                                + "for the B row (threads and conns are the plan's own, e.g. threads=1,conns=10), "
                                + "system properties written -DNAME=VALUE, or JVM options written -X... (e.g. -Xmn24m)");
                        System.exit(2);
                    }
                }
                case "--setups" -> {
                    for (String s : args[i + 1].split(",")) {
                        try {
                            setups.add(Setup.parse(s.trim()));
                        } catch (IllegalArgumentException e) {
                            System.err.println("h2-benchmark: " + e.getMessage());
                            System.exit(2);
                        }
                    }
                }
                default -> {
                    System.err.println("h2-benchmark: unknown option " + args[i] + "; use --duration S --warmup S "
                            + "--rounds N --setups h2c-10x20,h2c-1x100,h2-10x20,h2-1x100,h1-10x20 --profile DIR --ab NAME=VALUE "
                            + "--turns SECONDS");
                    System.exit(2);
                }
            }
        }
        if (turns > 0 && (ab != null || profile != null)) {
            System.err.println("h2-benchmark: --turns runs the two tools at once; use it without --ab and --profile");
            System.exit(2);
        }
        if (setups.isEmpty()) {
            for (String s : new String[] {"h2c-10x20", "h2c-1x100", "h2-10x20", "h2-1x100", "h1-10x20"}) {
                setups.add(Setup.parse(s));
            }
        }
        BenchOptions options = new BenchOptions(duration, warmup, 1, EnumSet.of(BenchOptions.Tool.RAW));
        JMeterHome home = JMeterHome.fromStampedeRoot().requirePlugin("stampede-plugins.jar");
        Path work = Files.createTempDirectory("stampede-h2-bench-");
        Path certs = work.resolve("tls");
        Files.createDirectories(certs);
        Process p = new ProcessBuilder("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                "-subj", "/CN=localhost", "-keyout", certs.resolve("key.pem").toString(), "-out",
                certs.resolve("cert.pem").toString()).redirectErrorStream(true)
                .redirectOutput(certs.resolve("openssl.out").toFile()).start();
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("openssl failed");
        }
        int h2c = FreePort.loopback();
        int h2 = FreePort.loopback();
        NginxStatus status = new NginxStatus(FreePort.loopback());
        String servers = "server {\n listen 127.0.0.1:" + h2c + " http2;\n root $dir/html;\n }\n"
                + " server {\n listen 127.0.0.1:" + h2 + " ssl http2;\n root $dir/html;\n ssl_certificate "
                + certs.resolve("cert.pem") + ";\n ssl_certificate_key " + certs.resolve("key.pem") + ";\n }\n"
                + NginxStatus.serverBlock(status.port());
        CpuTimes cpu = CpuTimes.linux();
        if (turns > 0) {
            System.out.printf("HTTP/2 benchmark: both tools at once, taking turns in slices of %.1f s until each has had "
                    + "%d s, after JMeter's %d s warm-up; requests counted by nginx; %d rounds; %d cores, load average "
                    + "before: %s%n", turns, duration - warmup, warmup, rounds, Runtime.getRuntime().availableProcessors(),
                    CpuTimes.loadAverage());
        } else {
            System.out.printf("HTTP/2 benchmark: %d s per run, figures over the %d s after a %d s warm-up, %d rounds; "
                    + "%d cores, load average before: %s%n", duration, duration - warmup, warmup, rounds,
                    Runtime.getRuntime().availableProcessors(), CpuTimes.loadAverage());
        }
        List<String> summary = new ArrayList<>();
        try (NginxServer nginx = NginxServer.start(NginxServer.Options.defaults().withSite(servers, ""))) {
            JMeterLoad jmeter = new JMeterLoad(home, nginx, cpu, options, work);
            if (profile != null) {
                // Profiling: Stampede's runs only, each window's CPU profile into DIR (figures not comparable).
                System.setProperty("stampede.bench.profiler",
                        profile.resolve("lib/linux-x64/libasyncProfiler.so").toString());
                System.setProperty("stampede.bench.profile", profile.toString());
            }
            for (Setup s : setups) {
                int port = s.tls() ? h2 : s.http1() ? nginx.port() : h2c; // nginx's TLS server speaks HTTP/1.1 too
                String url = (s.tls() ? "https" : "http") + "://127.0.0.1:" + port + "/test.txt";
                List<Measurement> ours = new ArrayList<>();
                List<Measurement> oursB = new ArrayList<>();
                List<Measurement> theirs = new ArrayList<>();
                Map<String, Object> props = new HashMap<>(Map.of("port", port,
                        "protocol", s.http1() ? "http/1.1" : s.protocol(), "tls", s.tls(), "threads", s.threads(),
                        "conns", s.connections() / s.threads(), "streams", s.http1() ? 1 : s.streams(),
                        "depth", s.http1() ? s.streams() : 1));
                Map<String, Object> propsB = new HashMap<>(props);
                if (ab != null) {
                    for (String setting : ab.split(",")) {
                        if (setting.startsWith("-X")) { // a JVM option, whole
                            propsB.put(setting, "");
                        } else {
                            propsB.put(setting.substring(0, setting.indexOf('=')),
                                    setting.substring(setting.indexOf('=') + 1));
                        }
                    }
                }
                int rows = ab == null ? 2 : 3;
                for (int r = 0; turns > 0 && r < rounds; r++) {
                    // Both tools warm and taking turns: Stampede first in even rounds, h2load in odd ones.
                    Measurement[] m = takeTurns(jmeter, new TakingTurns(cpu, nginx.processes(), status), s, url,
                            props, warmup, duration - warmup, turns, r % 2 == 1, work.resolve(s.name() + "-" + r));
                    ours.add(m[0]);
                    theirs.add(m[1]);
                    for (Measurement x : m) {
                        print(s, r, x);
                    }
                }
                for (int r = 0; turns == 0 && r < rounds; r++) {
                    for (int k = 0; k < rows; k++) {
                        int row = (r + k) % rows; // 0: h2load, 1: Stampede, 2: Stampede with --ab
                        boolean stampedeNow = row != 0;
                        if (profile != null && !stampedeNow) {
                            continue;
                        }
                        Measurement m;
                        if (row == 1) {
                            m = jmeter.measure("Stampede RAW", "bench-h2.jmx", s.name() + "-" + r, props);
                            ours.add(m);
                        } else if (row == 2) {
                            m = jmeter.measure("Stampede B", "bench-h2.jmx", s.name() + "-" + r + "-b", propsB);
                            oursB.add(m);
                        } else {
                            m = h2load(nginx, cpu, s, url, warmup, duration - warmup, work.resolve(s.name() + "-" + r));
                            theirs.add(m);
                        }
                        print(s, r, m);
                    }
                }
                if (profile != null) {
                    continue;
                }
                summary.add(String.format("%-10s Stampede %9.0f req/s %6.1f us/req err %d | h2load %9.0f req/s %6.1f"
                        + " us/req err %d | %s", s.name(), mean(ours, true), mean(ours, false),
                        ours.stream().mapToLong(Measurement::errors).sum(), mean(theirs, true), mean(theirs, false),
                        theirs.stream().mapToLong(Measurement::errors).sum(), ratios(ours, theirs, "ratio")));
                if (ab != null) {
                    summary.add(String.format("%-10s B (%s) %9.0f req/s %6.1f us/req err %d | %s", s.name(), ab,
                            mean(oursB, true), mean(oursB, false), oursB.stream().mapToLong(Measurement::errors).sum(),
                            ratios(oursB, theirs, "ratio to h2load")));
                }
            }
        }
        System.out.println();
        summary.forEach(System.out::println);
        try (var files = Files.walk(work)) {
            files.filter(f -> f.toString().endsWith(".jtl")).forEach(f -> f.toFile().delete());
        }
    }

    private static void print(Setup s, int round, Measurement m) {
        System.out.printf("  %-10s round %d %-13s %9.0f req/s %5.2f cores %6.1f us/req errors %d"
                + " (nginx %.2f cores, other load %.2f cores, steal %.2f cores)%n", s.name(), round + 1, m.tool(),
                m.requestsPerSecond(), m.cores(), m.cpuMicrosPerRequest(), m.errors(), m.nginxCores(),
                m.otherCores(), m.stealCores());
    }

    /**
     * One round with both tools running at once and taking turns ({@link TakingTurns}): JMeter starts and warms up
     * alone, is stopped, h2load starts and makes its connections, is stopped, then slices of {@code slice} seconds
     * alternate until each tool has had {@code measured} seconds. Errors are each tool's over its whole run.
     * Returns ours, then h2load's.
     */
    private static Measurement[] takeTurns(JMeterLoad jmeter, TakingTurns turns, Setup s, String url,
            Map<String, Object> props, int warmup, int measured, double slice, boolean h2loadFirst, Path dir)
            throws IOException, InterruptedException {
        Files.createDirectories(dir);
        int slices = Math.max(1, (int) Math.round(measured / slice));
        int turnSeconds = (int) Math.ceil(2 * slices * (slice + 0.5)) + 10;
        // JMeter is stopped while h2load starts and, in rounds where h2load goes first, for its first slice: together
        // under the plan's 10-s response timeout (--turns is at most 7 s).
        int h2loadStart = 2;
        JMeterRun.Running running = jmeter.start(Plans.get("bench-h2.jmx"), dir.getFileName() + "-turns", props,
                warmup + h2loadStart + turnSeconds);
        Thread.sleep(warmup * 1000L);
        TakingTurns.signal("STOP", running.pid());
        Path output = dir.resolve("h2load-turns.out");
        List<String> command = new ArrayList<>(List.of("h2load"));
        command.addAll(h2loadArguments(s, h2loadStart + turnSeconds, url));
        Process h2load = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        Measurement[] m = null;
        try {
            Thread.sleep(h2loadStart * 1000L); // its connections (and TLS handshakes) made outside the count
            TakingTurns.signal("STOP", h2load.pid());
            m = h2loadFirst
                    ? reversed(turns.run("h2load", h2load.pid(), "Stampede RAW", running.pid(), slices, slice))
                    : turns.run("Stampede RAW", running.pid(), "h2load", h2load.pid(), slices, slice);
        } finally {
            // Neither may stay stopped, whatever happened; after a failure h2load must not run on either (JMeter is
            // killed by its run's shutdown hook when the benchmark ends).
            ProcessTrees.signal("CONT", Stream.concat(Stream.of(h2load.toHandle()),
                    ProcessHandle.of(running.pid()).stream()).filter(ProcessHandle::isAlive).toList());
            if (m == null) {
                ProcessTrees.kill(h2load);
            }
        }
        if (!h2load.waitFor(turnSeconds + 60L, TimeUnit.SECONDS)) {
            h2load.destroyForcibly();
            throw new IllegalStateException("h2load did not finish");
        }
        String out = Files.readString(output);
        Matcher requests = REQUESTS.matcher(out);
        if (h2load.exitValue() != 0 || !requests.find()) {
            throw new IllegalStateException("h2load exited with " + h2load.exitValue() + ":\n" + out);
        }
        long h2loadErrors = errors(requests);
        JMeterRun.Result result = running.await();
        if (!result.succeeded()) {
            throw new IllegalStateException("Stampede RAW: " + result.describe());
        }
        return new Measurement[] {m[0].withErrors(JMeterLoad.errors(result)), m[1].withErrors(h2loadErrors)};
    }

    private static Measurement[] reversed(Measurement[] m) {
        return new Measurement[] {m[1], m[0]};
    }

    /** "WHAT per round 0.93 0.88, weakest 0.88": req/s of ours over h2load's, round by round. */
    private static String ratios(List<Measurement> ours, List<Measurement> theirs, String what) {
        StringBuilder perRound = new StringBuilder(what).append(" per round");
        double weakest = Double.MAX_VALUE;
        for (int r = 0; r < ours.size(); r++) {
            double ratio = ours.get(r).requestsPerSecond() / theirs.get(r).requestsPerSecond();
            weakest = Math.min(weakest, ratio);
            perRound.append(String.format(" %.2f", ratio));
        }
        return perRound.append(String.format(", weakest %.2f", weakest)).toString();
    }

    private static double mean(List<Measurement> ms, boolean rate) {
        return ms.stream().mapToDouble(m -> rate ? m.requestsPerSecond() : m.cpuMicrosPerRequest()).average()
                .orElse(Double.NaN);
    }

    private static Measurement h2load(NginxServer nginx, CpuTimes cpu, Setup s, String url, int warmup, int measured,
                                      Path dir) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        if (warmup > 0) {
            run(s, url, warmup, dir.resolve("h2load-warmup.out"));
        }
        CpuWindow window = CpuWindow.open(cpu, () -> 0.0, nginx.processes());
        String out = run(s, url, measured, dir.resolve("h2load.out"));
        CpuWindow.Ended ended = window.end();
        Matcher m = REQUESTS.matcher(out);
        Matcher f = FINISHED.matcher(out);
        Matcher t = CHILD_CPU.matcher(out);
        if (!m.find() || !f.find() || !t.find()) {
            throw new IllegalStateException("h2load's output lacks its figures:\n" + out);
        }
        long ok = Long.parseLong(m.group(4));
        long errors = errors(m);
        double seconds = Double.parseDouble(f.group(1));
        double h2loadCpu = (Long.parseLong(t.group(1)) + Long.parseLong(t.group(2))) / (double) cpu.ticksPerSecond();
        return new Measurement("h2load", ok + errors, errors, seconds, h2loadCpu, ended.nginxCpu(),
                ended.machineCpu(), ended.stealCpu());
    }

    /** h2load's arguments for the setup, for {@code seconds} (-D). */
    private static List<String> h2loadArguments(Setup s, int seconds, String url) {
        List<String> args = new ArrayList<>(List.of("-c", Integer.toString(s.connections()), "-m",
                Integer.toString(s.streams()), "-t", Integer.toString(s.threads()), "-D", Integer.toString(seconds)));
        if (s.http1()) {
            args.add("--h1"); // HTTP/1.1, -m requests pipelined per connection
        }
        args.add(url);
        return args;
    }

    /** Failed, errored and timed-out requests from h2load's "requests:" line ({@link #REQUESTS}, found). */
    private static long errors(Matcher requests) {
        return Long.parseLong(requests.group(5)) + Long.parseLong(requests.group(6)) + Long.parseLong(requests.group(7));
    }

    private static String run(Setup s, String url, int seconds, Path output) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("bash", "-c", WRAPPER, "h2load"));
        command.addAll(h2loadArguments(s, seconds, url));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        if (!p.waitFor(seconds + 60L, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw new IllegalStateException("h2load did not finish within " + (seconds + 60) + " s");
        }
        String out = Files.readString(output);
        if (p.exitValue() != 0) {
            throw new IllegalStateException("h2load exited with " + p.exitValue() + ":\n" + out);
        }
        return out;
    }
}
