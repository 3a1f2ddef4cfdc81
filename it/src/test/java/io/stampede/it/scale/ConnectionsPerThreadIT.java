/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.scale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.it.support.JMeterHome;
import io.stampede.it.support.JMeterRun;
import io.stampede.it.support.Jtl;
import io.stampede.it.support.JtlRow;
import io.stampede.it.support.NginxServer;
import io.stampede.it.support.Plans;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * JMeter 5.6.3 runs a plan whose threads each keep many connections busy (stampede.connections_per_thread) against
 * a real nginx; the JTL and nginx's own log must agree on the connections, and every response must have gone through
 * the thread's extractor and assertion. Then `stampede run` shows the open connections and the µs percentiles.
 */
class ConnectionsPerThreadIT {

    private static final Path ROOT = Path.of(System.getProperty("stampede.root", "..")).toAbsolutePath().normalize();
    private static final int THREADS = 2;
    private static final int CONNS = 25;

    private static NginxServer nginx;
    private static JMeterHome home;

    @TempDir
    Path work;

    @BeforeAll
    static void start() {
        home = JMeterHome.fromStampedeRoot().requirePlugin("stampede-plugins.jar");
        nginx = NginxServer.start(NginxServer.Options.defaults().withAccessLog());
    }

    @AfterAll
    static void stop() {
        if (nginx != null) {
            nginx.close();
        }
    }

    /** Both I/O modes: the thread's own event loop, and the engine's shared loops handing results over. */
    @ParameterizedTest
    @ValueSource(strings = {"thread", "engine"})
    void twoThreadsKeepFiftyConnectionsBusyWithOneResultPerResponse(String ioMode) {
        // A fresh nginx, so that its access log holds this run's connections only.
        try (NginxServer own = NginxServer.start(NginxServer.Options.defaults().withAccessLog())) {
            checkConnectionsPerThread(own, ioMode);
        }
    }

    private void checkConnectionsPerThread(NginxServer server, String ioMode) {
        JMeterRun.Result r = JMeterRun.of(home, Plans.get("scale-connections.jmx"), work.resolve(ioMode))
                .property("host", server.host())
                .property("port", server.port())
                .property("threads", THREADS)
                .property("conns", CONNS)
                .property("duration", 5)
                .property("stampede.io_mode", ioMode)
                .property("sample_variables", "stampede_open_connections,stampede_elapsed_us,stampede_corrected_us,"
                        + "greeting")
                .timeout(Duration.ofSeconds(90))
                .run();
        assertTrue(r.succeeded(), r.describe());
        Jtl jtl = Jtl.read(r.jtl());
        assertTrue(jtl.count() > 1000, "rows: " + jtl.count());
        assertEquals(0, jtl.errors(), "no failed sample");
        List<Long> open = new ArrayList<>();
        for (JtlRow row : jtl.rows()) {
            assertEquals("Hello", row.get("greeting"), "the extractor ran on this result's thread: " + row);
            long us = row.getLong("stampede_elapsed_us");
            assertTrue(Math.abs(us / 1000 - row.elapsed()) <= 1, "elapsed_us " + us + " vs elapsed " + row.elapsed());
            assertTrue(row.getLong("stampede_corrected_us") >= us - 1000, row.toString());
            open.add(row.getLong("stampede_open_connections"));
        }
        assertEquals(THREADS * CONNS, open.stream().mapToLong(Long::longValue).max().orElse(0));
        // Once all are up (after the first round) every result reports them all open.
        assertEquals(THREADS * CONNS, open.get(open.size() / 2));
        assertEquals(THREADS * CONNS, jtl.connectsAboveZero(), "one sample with Connect > 0 per connection");
        assertEquals(THREADS * CONNS, new HashSet<>(server.accessLogConnections()).size(),
                "nginx saw exactly threads x connections_per_thread connections");
        assertEquals(jtl.count(), server.accessLogConnections().size() - inFlightAtEnd(server, jtl),
                "one JTL row per response nginx sent (less those still in flight when the test stopped)");
    }

    /** Responses nginx logged but JMeter never took: at most one per connection, when the test stopped. */
    private static int inFlightAtEnd(NginxServer server, Jtl jtl) {
        int logged = server.accessLogConnections().size();
        int diff = logged - jtl.count();
        assertTrue(diff >= 0 && diff <= THREADS * CONNS, "nginx logged " + logged + ", JTL has " + jtl.count());
        return diff;
    }

    @Test
    void stampedeRunShowsOpenConnectionsAndMicrosecondPercentiles(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("out");
        List<String> cmd = List.of(ROOT.resolve("stampede").toString(), "run",
                Plans.get("scale-connections.jmx").toString(), "--out", out.toString(), "--no-dashboard",
                "--progress-every", "2", "--host", nginx.host(), "--port", Integer.toString(nginx.port()),
                "-J", "threads=" + THREADS, "-J", "conns=" + CONNS, "-J", "pacing_ms=500", "-J", "duration=7");
        Path stdout = tmp.resolve("stdout");
        Process p = new ProcessBuilder(cmd).directory(ROOT.toFile()).redirectErrorStream(true)
                .redirectOutput(stdout.toFile()).start();
        try {
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), "stampede run did not end in 120 s");
        } finally {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        String text = Files.readString(stdout);
        assertEquals(0, p.exitValue(), text);
        assertTrue(text.contains("connections 50"), "progress line shows the open connections:\n" + text);
        assertTrue(text.matches("(?s).*latency +p50 [\\d.]+ ms  p90 [\\d.]+ ms  p99 [\\d.]+ ms  p99\\.9 [\\d.]+ ms"
                + "  p99\\.99 [\\d.]+ ms  max [\\d.]+ ms.*"), text);
        assertTrue(text.contains("corrected  p50 "), "paced run reports the CO-corrected latency:\n" + text);
        assertTrue(Files.readString(out.resolve("latency.hlog")).contains("Tag=corrected"));
        // 50 connections, one request each every 500 ms, for about 7 s: about 100 req/s.
        long samples = Jtl.read(out.resolve("results.jtl")).count();
        assertTrue(samples >= 500 && samples <= 800, "paced samples: " + samples);
    }
}
