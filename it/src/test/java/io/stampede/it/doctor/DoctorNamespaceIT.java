/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.doctor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
}
