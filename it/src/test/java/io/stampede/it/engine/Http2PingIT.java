/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.engine;

import io.stampede.it.support.Folders;
import io.stampede.it.support.FreePort;
import io.stampede.it.support.JMeterHome;
import io.stampede.it.support.JMeterRun;
import io.stampede.it.support.Jtl;
import io.stampede.it.support.JtlRow;
import io.stampede.it.support.NginxServer;
import io.stampede.it.support.Plans;
import io.stampede.it.support.ProcessTrees;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * HTTP/2 PINGs ({@code stampede.h2.ping_ms}) against real servers, with a user who thinks between samples
 * (it/src/test/resources/plans/h2-ping.jmx, the RAW sampler over h2c): HAProxy's front end ({@code bind ... proto h2},
 * {@code timeout client 1s}) keeps a PINGed connection open past its client timeout; nginx 1.22 closes an idle
 * HTTP/2 connection {@code keepalive_timeout} after its last request whether PINGed or not, so PINGs cannot stretch
 * that one; and a server frozen with SIGSTOP (its sockets still open, the kernel still ACKing) fails the waiting
 * sample at the second silent interval instead of at its 30-s response timeout.
 */
class Http2PingIT {
    private static final String LABEL = "GET after think";

    private static Path dir;
    private static NginxServer nginx;
    private static int nginxH2c;
    private static int haproxyH2c;
    private static Process haproxy;

    @BeforeAll
    static void startServers() throws Exception {
        dir = Files.createTempDirectory("stampede-h2-ping-");
        nginxH2c = FreePort.loopback();
        nginx = NginxServer.start(NginxServer.Options.defaults().withAccessLog().withSite(
                "server {\n    listen 127.0.0.1:" + nginxH2c + " http2;\n    keepalive_timeout 1s;\n"
                + "    root $dir/html;\n  }", ""));
        haproxyH2c = FreePort.loopback();
        Path cfg = dir.resolve("haproxy.cfg");
        Files.writeString(cfg, "defaults\n  mode http\n  timeout connect 5s\n  timeout client 1s\n"
                + "  timeout server 30s\n"
                + "frontend h2c\n  bind 127.0.0.1:" + haproxyH2c + " proto h2\n  default_backend web\n"
                + "backend web\n  server web1 127.0.0.1:" + nginx.port() + "\n");
        haproxy = new ProcessBuilder("haproxy", "-db", "-f", cfg.toString()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("haproxy.log").toFile()).start();
        FreePort.awaitListening(haproxyH2c, haproxy, "haproxy", () -> Folders.readQuietly(dir.resolve("haproxy.log")));
    }

    @AfterAll
    static void stopServers() {
        if (haproxy != null) {
            ProcessTrees.kill(haproxy);
        }
        if (nginx != null) {
            nginx.close();
        }
        if (dir != null) {
            Folders.deleteQuietly(dir);
        }
    }

    private static JMeterRun plan(int port, int pingMillis, int thinkMillis, String name) {
        return JMeterRun.of(JMeterHome.fromStampedeRoot(), Plans.get("h2-ping.jmx"), dir.resolve(name))
                .property("host", "127.0.0.1").property("port", port).property("loops", 3)
                .property("think_ms", thinkMillis).property("ping_ms", pingMillis).timeout(Duration.ofSeconds(120));
    }

    private static Jtl run(int port, int pingMillis, String name) {
        JMeterRun.Result r = plan(port, pingMillis, 2500, name).run();
        assertTrue(r.succeeded(), r.describe());
        return Jtl.read(r.jtl());
    }

    private static String firstFailure(Jtl jtl) {
        return jtl.rows().stream().filter(r -> !r.success()).map(JtlRow::toString).findFirst().orElse("none");
    }

    @Test
    void pingsKeepAConnectionOpenThroughHaproxysClientTimeoutWhileTheUserThinks() {
        Jtl without = run(haproxyH2c, 0, "haproxy-no-ping");
        Jtl with = run(haproxyH2c, 400, "haproxy-ping");
        assertAll(
                () -> assertEquals(3, without.count()),
                () -> assertEquals(0, without.errors(), () -> firstFailure(without)),
                () -> assertEquals(3, without.label(LABEL).connectsAboveZero(),
                        "without PINGs HAProxy closed the idle connection after 1 s: a connect per sample"),
                () -> assertEquals(3, with.count()),
                () -> assertEquals(0, with.errors(), () -> firstFailure(with)),
                () -> assertEquals(1, with.label(LABEL).connectsAboveZero(),
                        "with PINGs every 400 ms one connection carried all three samples"));
    }

    @Test
    void nginxClosesAnIdleHttp2ConnectionAtItsKeepaliveTimeoutPingedOrNot() {
        nginx.clearAccessLog();
        Jtl with = run(nginxH2c, 400, "nginx-ping");
        assertAll(
                () -> assertEquals(0, with.errors(), () -> firstFailure(with)),
                () -> assertEquals(3, with.label(LABEL).connectsAboveZero(),
                        "nginx counts keepalive_timeout from the last request: a PING does not extend it"),
                () -> assertEquals(3, nginx.accessLogConnections().stream().distinct().count(),
                        "three connections on nginx's side: " + nginx.accessLogConnections()));
    }

    @Test
    void aFrozenServerFailsTheWaitingSampleAtTheSecondSilentIntervalNotAtItsResponseTimeout() throws Exception {
        nginx.clearAccessLog();
        // PINGs after 1 s of silence; the plan's response timeout is 30 s.
        JMeterRun.Running running = plan(nginxH2c, 1000, 300, "nginx-frozen").start();
        List<ProcessHandle> frozen = new ArrayList<>();
        JMeterRun.Result result;
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (nginx.accessLogConnections().isEmpty() && System.nanoTime() < deadline && running.isAlive()) {
                Thread.sleep(10);
            }
            assertEquals(1, nginx.accessLogConnections().size(), "the first sample was served");
            // The user thinks 300 ms before the second sample: nginx stops well before it is sent.
            frozen.addAll(nginx.processes());
            assertTrue(ProcessTrees.signal("STOP", frozen), "kill -STOP");
            Thread.sleep(4000);
        } finally {
            assertTrue(ProcessTrees.signal("CONT", frozen), "kill -CONT");
            result = running.await(); // also when the test failed above: JMeter ends (or is killed) here
        }
        assertTrue(result.succeeded(), result.describe());
        List<JtlRow> rows = Jtl.read(result.jtl()).rows();
        assertEquals(3, rows.size(), rows::toString);
        JtlRow dead = rows.get(1);
        System.out.printf("Http2PingIT: nginx frozen, the waiting sample failed after %d ms (%s); the next connected"
                + " in %d ms%n", dead.elapsed(), dead.responseCode(), rows.get(2).connect());
        assertAll(
                () -> assertTrue(rows.get(0).success(), rows.get(0)::toString),
                () -> assertEquals("Non HTTP response code: io.stampede.engine.PingTimeoutException",
                        dead.responseCode(), dead::toString),
                () -> assertTrue(dead.responseMessage().contains("not even the answer to a PING sent 1000 ms ago"),
                        dead::toString),
                // Two silent seconds from the first response, minus the 300-ms think time; not 30 s.
                () -> assertTrue(dead.elapsed() >= 1000 && dead.elapsed() < 5000, dead::toString),
                () -> assertTrue(rows.get(2).success(), rows.get(2)::toString),
                () -> assertTrue(rows.get(2).connect() > 0, "the third sample opened a new connection"));
    }

}
