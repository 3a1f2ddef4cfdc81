/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.doctor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.doctor.PortBudget;
import io.stampede.doctor.RunDiagnosis;
import io.stampede.doctor.TimeWaitTrend;
import io.stampede.results.ErrorKind;
import io.stampede.results.JtlTail;
import io.stampede.results.RunStatistics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * `stampede doctor` inside a network namespace whose ephemeral port range is narrowed to 500 ports: the per-netns
 * sysctls are what the doctor must read, and the host is left untouched.
 */
class DoctorNamespaceIT {

    private static final Path ROOT = Path.of(System.getProperty("stampede.root", "..")).toAbsolutePath().normalize();
    private static final Path JAR = ROOT.resolve("src/target/stampede.jar");
    private static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    private static final Path STOCK = ROOT.resolve("it/src/test/resources/doctor/stock-http-per-iteration.jmx");
    private static final Path STAMPEDE = ROOT.resolve("it/src/test/resources/doctor/stampede-http.jmx");

    @TempDir
    Path dir;

    @BeforeAll
    static void needsRootAndTheBuiltJar() {
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")), "network namespaces need root");
        assertTrue(Files.isRegularFile(JAR), "build the CLI first: mvn -B -pl src -am package -DskipTests");
    }

    private static Namespace narrowed() throws Exception {
        Namespace ns = Namespace.create();
        try {
            ns.must("sysctl", "-q", "-w", "net.ipv4.ip_local_port_range=40000 40499");
            return ns;
        } catch (RuntimeException e) {
            ns.close();
            throw e;
        }
    }

    private static Namespace.Result doctor(Namespace ns, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(JAVA, "-jar", JAR.toString(), "doctor"));
        cmd.addAll(List.of(args));
        return ns.exec(cmd, 60);
    }

    @Test
    void noKeepAliveRateBeyondFiveHundredPortsFailsWithExitOne() throws Exception {
        try (Namespace ns = narrowed()) {
            // tcp_tw_reuse is per namespace: 0 takes away the loopback exemption of the default 2.
            ns.must("sysctl", "-q", "-w", "net.ipv4.tcp_tw_reuse=0");
            Namespace.Result r = doctor(ns, "--rate", "50", "--target", "127.0.0.1:8080");
            assertEquals(1, r.exit(), r.output());
            assertTrue(r.output().contains("WARN  ephemeral ports              40000-40499 = 500 ports, none reserved"),
                    r.output());
            assertTrue(r.output().contains("FAIL  new connections/s            about 8.3 new connections/s per destination"
                    + " (500 ports / 60 s TIME_WAIT); planned 50/s"), r.output());
            assertTrue(r.output().contains("fix: net.ipv4.ip_local_port_range = 1024 65000"), r.output());
            assertTrue(r.output().contains("doctor: fail (ports 40000-40499, 500 per destination;"), r.output());
            // The host's own range is untouched.
            assertFalse(Files.readString(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).startsWith("40000"));
        }
    }

    @Test
    void loopbackReuseOfTheDefaultModeIsTakenIntoAccount() throws Exception {
        try (Namespace ns = narrowed()) {
            Namespace.Result r = doctor(ns, "--rate", "50", "--target", "127.0.0.1:8080", "--json");
            // tcp_tw_reuse=2 covers loopback: 500 ports / 1 s; only the narrow range is worth a warning.
            assertEquals(5, r.exit(), r.output());
            assertTrue(r.output().contains("\"verdict\": \"warn\""), r.output());
            assertTrue(r.output().contains("about 500 new connections/s per destination (500 ports / 1 s"), r.output());
        }
    }

    @Test
    void planVerdictsFollowWhoClosesTheConnections() throws Exception {
        try (Namespace ns = narrowed()) {
            // A non-loopback address of the namespace: tcp_tw_reuse=2 does not cover it.
            ns.must("ip", "addr", "add", "10.213.0.1/32", "dev", "lo");
            Namespace.Result stock = doctor(ns, "--plan", STOCK.toString(), "-J", "host=10.213.0.1");
            assertEquals(1, stock.exit(), stock.output());
            assertTrue(stock.output().contains("target 10.213.0.1:8080 (local)"), stock.output());
            assertTrue(stock.output().contains("load: thread group 'stock users': 5 threads x 400 loops, 1 HTTP sampler(s),"
                    + " 1 connection(s) per iteration closed by the injector"), stock.output());
            assertTrue(stock.output().contains("FAIL  new connections/s            about 8.3 new connections/s per destination"
                    + " (500 ports / 60 s TIME_WAIT); planned 500/s"), stock.output());

            Namespace.Result closeHeader = doctor(ns, "--plan", STAMPEDE.toString(), "-J", "host=10.213.0.1");
            assertEquals(5, closeHeader.exit(), closeHeader.output());
            assertTrue(closeHeader.output().contains("new connections/s that the server closes"), closeHeader.output());
            assertTrue(closeHeader.output().contains("OK    new connections/s"), closeHeader.output());

            Namespace.Result keepAlive = doctor(ns, "--plan", keepAlivePlan().toString(), "-J", "host=10.213.0.1");
            assertEquals(5, keepAlive.exit(), keepAlive.output());
            assertTrue(keepAlive.output().contains("OK    new connections/s"), keepAlive.output());
            assertTrue(keepAlive.output().contains("WARN  ephemeral ports"), keepAlive.output());
            assertTrue(keepAlive.output().contains(" for 5 connections)"), keepAlive.output());
        }
    }

    private Path keepAlivePlan() throws Exception {
        Path keeping = Files.writeString(dir.resolve("keep-alive.jmx"), Files.readString(STAMPEDE).replace(
                "<boolProp name=\"stampede.keep_alive\">false</boolProp>",
                "<boolProp name=\"stampede.keep_alive\">true</boolProp>"));
        assertTrue(Files.readString(keeping).contains("stampede.keep_alive\">true"), "the plan was not rewritten");
        return keeping;
    }

    @Test
    void welcomePlanPassesOnDefaultSettings() throws Exception {
        Path welcome = ROOT.resolve("plans/nginx-welcome-1000x50.jmx");
        assertTrue(Files.isRegularFile(welcome), welcome + " is missing");
        try (Namespace ns = Namespace.create()) {
            Namespace.Result r = doctor(ns, "--plan", welcome.toString());
            assertEquals(0, r.exit(), r.output());
            assertTrue(r.output().contains("doctor: ok (ports 32768-60999, 28232 per destination; nofile"), r.output());
            assertTrue(r.output().contains("for 1000 connections)"), r.output());
        }
    }

    /**
     * The prediction comes true with `stampede run` and real nginx in the 500-port namespace: stock JMeter HTTP
     * (a connection per iteration, closed by the injector) gets about 500 responses and then "Cannot assign
     * requested address"; the doctor afterwards finds every port to the target in TIME_WAIT, and RunDiagnosis on
     * the run's JTL names the injector. In a fresh namespace the keep-alive plan runs with zero errors.
     */
    @Test
    void runOutOfLocalPortsAsPredictedAndKeepAliveRunsClean() throws Exception {
        try (Namespace ns = narrowed()) {
            ns.must("sysctl", "-q", "-w", "net.ipv4.tcp_tw_reuse=0");
            ns.must("ip", "addr", "add", "10.213.0.1/32", "dev", "lo");
            Process nginx = startNginx(ns);
            try {
                Namespace.Result before = doctor(ns, "--plan", STOCK.toString(), "-J", "host=10.213.0.1", "-J", "port=18080");
                assertEquals(1, before.exit(), before.output());
                long timeWaitBefore = timeWaitToTarget(before.output());

                Path out = dir.resolve("stock-run");
                Namespace.Result run = stampedeRun(ns, STOCK, out);
                assertEquals(0, run.exit(), run.output());
                assertTrue(run.output().contains("out of local ports (Cannot assign requested address)"), run.output());

                Namespace.Result after = doctor(ns, "--target", "10.213.0.1:18080");
                assertEquals(1, after.exit(), after.output());
                assertTrue(after.output().contains("every local port for this destination is in TIME_WAIT"), after.output());
                long timeWaitAfter = timeWaitToTarget(after.output());

                // stampede run printed the doctor's verdict first and named the injector in its summary.
                assertTrue(run.output().contains("stampede run: doctor: fail (ports 40000-40499, 500 per destination;"),
                        run.output());
                assertTrue(run.output().contains("  FAIL new connections/s: "), run.output());
                // (its own reachability probe leaves one TIME_WAIT socket before the load starts)
                assertTrue(run.output().contains("the injector ran out of local ports; the injector, not the server, is"
                        + " the cause; TIME_WAIT to the target went from "), run.output());
                assertTrue(run.output().contains(" to 500 (of 500 local ports per destination)"), run.output());
                assertTrue(run.output().contains("fix: keep connections alive"), run.output());

                // The same diagnosis from the run's JTL through the API, with the doctor's counts around the run.
                RunStatistics stats = new RunStatistics();
                try (JtlTail jtl = new JtlTail(out.resolve("results.jtl"))) {
                    jtl.poll(stats::add);
                }
                assertEquals(2000, stats.samples());
                long outOfPorts = stats.errorsByKind().getOrDefault(ErrorKind.OUT_OF_LOCAL_PORTS, 0L);
                assertTrue(outOfPorts >= 1000, stats.errorsByKind().toString());
                assertEquals(stats.errors(), outOfPorts, stats.errorsByKind().toString());
                PortBudget budget = new PortBudget(40000, 40499, 0, 0, OptionalLong.of(1000), true, false);
                RunDiagnosis diagnosis = RunDiagnosis.of(stats.errorsByKind(), stats.samples(),
                        Optional.of(new TimeWaitTrend(timeWaitBefore, timeWaitAfter)), Optional.of(budget));
                assertTrue(diagnosis.injectorSuspected(), diagnosis.lines().toString());
                assertTrue(diagnosis.lines().get(0).startsWith("injector: " + outOfPorts + " of 2000 samples"),
                        diagnosis.lines().get(0));
            } finally {
                stop(nginx);
            }
        }
        try (Namespace ns = narrowed()) {
            ns.must("sysctl", "-q", "-w", "net.ipv4.tcp_tw_reuse=0");
            ns.must("ip", "addr", "add", "10.213.0.1/32", "dev", "lo");
            Process nginx = startNginx(ns);
            try {
                Path plan = keepAlivePlan();
                Namespace.Result doctor = doctor(ns, "--plan", plan.toString(), "-J", "host=10.213.0.1", "-J", "port=18080");
                assertEquals(5, doctor.exit(), doctor.output());
                assertTrue(doctor.output().contains("OK    new connections/s"), doctor.output());
                Namespace.Result run = stampedeRun(ns, plan, dir.resolve("keep-alive-run"));
                assertEquals(0, run.exit(), run.output());
                assertTrue(run.output().contains("samples    2,000 in"), run.output());
                assertTrue(run.output().contains("errors     0 (0.000%)"), run.output());
                // no blame of the injector (the "injector: …" line of issue 18's injector share is about send delays)
                assertFalse(Pattern.compile("injector: [\\d,]+ of [\\d,]+ samples").matcher(run.output()).find(),
                        run.output());
            } finally {
                stop(nginx);
            }
        }
    }

    private static Namespace.Result stampedeRun(Namespace ns, Path plan, Path out) throws Exception {
        return ns.exec(List.of(JAVA, "-jar", JAR.toString(), "run", plan.toString(), "--host", "10.213.0.1", "--port",
                "18080", "--no-dashboard", "--heap", "512m", "--out", out.toString()), 240);
    }

    private static void stop(Process p) throws InterruptedException {
        p.destroy();
        if (!p.waitFor(10, TimeUnit.SECONDS)) {
            p.destroyForcibly();
        }
    }

    private Process startNginx(Namespace ns) throws Exception {
        Path prefix = Files.createDirectories(dir.resolve("nginx"));
        Files.createDirectories(prefix.resolve("logs"));
        Path conf = Files.writeString(prefix.resolve("nginx.conf"), """
                worker_processes 1;
                error_log %1$s/logs/error.log;
                pid %1$s/nginx.pid;
                events { worker_connections 1024; }
                http {
                    access_log off;
                    server { listen 10.213.0.1:18080; location / { return 200 "ok\\n"; } }
                }
                """.formatted(prefix));
        Process p = new ProcessBuilder("ip", "netns", "exec", ns.name, "nginx", "-p", prefix.toString(), "-c",
                conf.toString(), "-g", "daemon off;").redirectErrorStream(true)
                .redirectOutput(prefix.resolve("logs/stdout.log").toFile()).start();
        for (int i = 0; i < 50; i++) {
            if (ns.exec(List.of("ss", "-Hltn", "sport = :18080"), 10).output().contains("18080")) {
                return p;
            }
            if (!p.isAlive()) {
                break;
            }
            Thread.sleep(100);
        }
        p.destroyForcibly();
        throw new IllegalStateException("nginx did not start in " + ns.name + ": "
                + Files.readString(prefix.resolve("logs/stdout.log")));
    }

    private static long timeWaitToTarget(String doctorOutput) {
        Matcher m = Pattern.compile("TIME_WAIT sockets now\\s+\\d+ in total, (\\d+) to ").matcher(doctorOutput);
        assertTrue(m.find(), doctorOutput);
        return Long.parseLong(m.group(1));
    }
}
