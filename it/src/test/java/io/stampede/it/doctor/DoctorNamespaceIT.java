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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
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
    void noKeepAliveRateBeyondFiveHundredPortsFailsWithExitTwo() throws Exception {
        try (Namespace ns = narrowed()) {
            // tcp_tw_reuse is per namespace: 0 takes away the loopback exemption of the default 2.
            ns.must("sysctl", "-q", "-w", "net.ipv4.tcp_tw_reuse=0");
            Namespace.Result r = doctor(ns, "--rate", "50", "--target", "127.0.0.1:8080");
            assertEquals(2, r.exit(), r.output());
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
            assertEquals(1, r.exit(), r.output());
            assertTrue(r.output().contains("\"verdict\": \"warn\""), r.output());
            assertTrue(r.output().contains("about 500 new connections/s per destination (500 ports / 1 s"), r.output());
        }
    }

    @Test
    void noKeepAlivePlanFailsAndTheKeepAliveVersionPasses() throws Exception {
        Path closing = ROOT.resolve("it/src/test/resources/doctor/new-connection-per-request.jmx");
        Path keeping = Files.writeString(dir.resolve("keep-alive.jmx"), Files.readString(closing).replace(
                "<boolProp name=\"stampede.keep_alive\">false</boolProp>",
                "<boolProp name=\"stampede.keep_alive\">true</boolProp>"));
        assertTrue(Files.readString(keeping).contains("stampede.keep_alive\">true"), "the plan was not rewritten");
        try (Namespace ns = narrowed()) {
            // A non-loopback address of the namespace: tcp_tw_reuse=2 does not cover it.
            ns.must("ip", "addr", "add", "10.213.0.1/32", "dev", "lo");
            Namespace.Result fail = doctor(ns, "--plan", closing.toString(), "-J", "host=10.213.0.1");
            assertEquals(2, fail.exit(), fail.output());
            assertTrue(fail.output().contains("target 10.213.0.1:8080 (local)"), fail.output());
            assertTrue(fail.output().contains("load: thread group 'closing users': 5 threads x 400 loops, 1 HTTP sampler(s),"
                    + " 1 new connection(s) per iteration (no keep-alive) = 500 new connections/s"), fail.output());
            assertTrue(fail.output().contains("FAIL  new connections/s            about 8.3 new connections/s per destination"
                    + " (500 ports / 60 s TIME_WAIT); planned 500/s"), fail.output());
            Namespace.Result pass = doctor(ns, "--plan", keeping.toString(), "-J", "host=10.213.0.1");
            assertEquals(1, pass.exit(), pass.output());
            assertTrue(pass.output().contains("OK    new connections/s"), pass.output());
            assertTrue(pass.output().contains("WARN  ephemeral ports"), pass.output());
            assertTrue(pass.output().contains(" for 5 connections)"), pass.output());
        }
    }

    @Test
    void welcomePlanPassesOnDefaultSettings() throws Exception {
        Path welcome = ROOT.resolve("plans/nginx-welcome-1000x50.jmx");
        Assumptions.assumeTrue(Files.isRegularFile(welcome), "plans/nginx-welcome-1000x50.jmx comes from main");
        try (Namespace ns = Namespace.create()) {
            Namespace.Result r = doctor(ns, "--plan", welcome.toString());
            assertEquals(0, r.exit(), r.output());
            assertTrue(r.output().contains("doctor: ok (ports 32768-60999, 28232 per destination; nofile"), r.output());
            assertTrue(r.output().contains("for 1000 connections)"), r.output());
        }
    }

    /**
     * The prediction comes true: in the 500-port namespace a client that opens a new connection per request and
     * closes first gets 500 responses from real nginx, then "Cannot assign requested address"; the doctor then
     * sees all 500 ports in TIME_WAIT, and RunDiagnosis names the injector. (A stand-in client, until the proof
     * can use `stampede run` with Stampede's samplers.)
     */
    @Test
    void injectorRunsOutOfPortsAsPredicted() throws Exception {
        Path closing = ROOT.resolve("it/src/test/resources/doctor/new-connection-per-request.jmx");
        Path client = ROOT.resolve("it/src/test/resources/doctor/ClosingClient.java");
        try (Namespace ns = narrowed()) {
            ns.must("sysctl", "-q", "-w", "net.ipv4.tcp_tw_reuse=0");
            ns.must("ip", "addr", "add", "10.213.0.1/32", "dev", "lo");
            Process nginx = startNginx(ns);
            try {
                Namespace.Result before = doctor(ns, "--plan", closing.toString(), "-J", "host=10.213.0.1", "-J", "port=18080");
                assertEquals(2, before.exit(), before.output());
                long timeWaitBefore = timeWaitToTarget(before.output());

                Namespace.Result load = ns.exec(List.of(JAVA, client.toString(), "10.213.0.1", "18080", "600"), 90);
                assertEquals(0, load.exit(), load.output());
                assertTrue(load.output().contains("ok=500\n"), load.output());
                Map<ErrorKind, Long> errors = new EnumMap<>(ErrorKind.class);
                for (String line : load.output().split("\n")) {
                    if (line.startsWith("fail=")) {
                        String[] f = line.split("\\|");
                        errors.merge(ErrorKind.of(f[1], f[2]), Long.parseLong(f[0].substring(5)), Long::sum);
                    }
                }
                assertEquals(Map.of(ErrorKind.OUT_OF_LOCAL_PORTS, 100L), errors, load.output());

                Namespace.Result after = doctor(ns, "--target", "10.213.0.1:18080");
                assertEquals(2, after.exit(), after.output());
                assertTrue(after.output().contains("FAIL  TIME_WAIT sockets now"), after.output());
                assertTrue(after.output().contains("every local port for this destination is in TIME_WAIT"), after.output());
                long timeWaitAfter = timeWaitToTarget(after.output());
                assertEquals(500, timeWaitAfter - timeWaitBefore, after.output());

                PortBudget budget = new PortBudget(40000, 40499, 0, 0, OptionalLong.of(1000), true, false);
                RunDiagnosis diagnosis = RunDiagnosis.of(errors, 600, Optional.of(new TimeWaitTrend(timeWaitBefore,
                        timeWaitAfter)), Optional.of(budget));
                assertTrue(diagnosis.injectorSuspected(), diagnosis.lines().toString());
                assertTrue(diagnosis.lines().get(0).startsWith("injector: 100 of 600 samples (16.67%) failed with"
                        + " \"out of local ports (Cannot assign requested address)\""), diagnosis.lines().get(0));
            } finally {
                nginx.destroy();
                if (!nginx.waitFor(10, TimeUnit.SECONDS)) {
                    nginx.destroyForcibly();
                }
            }
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
