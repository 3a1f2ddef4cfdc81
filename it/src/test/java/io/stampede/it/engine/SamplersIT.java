/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.engine;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.it.support.HttpExchange;
import io.stampede.it.support.JMeterHome;
import io.stampede.it.support.JMeterRun;
import io.stampede.it.support.Jtl;
import io.stampede.it.support.JtlRow;
import io.stampede.it.support.NginxServer;
import io.stampede.it.support.Plans;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * JMeter 5.6.3 in non-GUI mode runs real plans with both Stampede samplers against a real nginx, under the two casutg
 * thread groups users run them with, and the JTL must say exactly what happened on the wire. nginx logs its own
 * connection serial number per request, so keep-alive is checked from both ends.
 */
class SamplersIT {

    private static final String RAW = "RAW GET /test.txt";
    private static final String HTTP = "HTTP GET /test.txt";
    private static final int THREADS = 4;
    private static final int LOOPS = 50;

    private static NginxServer nginx;
    private static JMeterHome home;
    private static int keepAliveResponseBytes;
    private static int closeResponseBytes;

    @TempDir
    Path work;

    @BeforeAll
    static void startNginx() {
        home = JMeterHome.fromStampedeRoot().requirePlugin("stampede-plugins.jar").requirePlugin("jmeter-plugins-casutg.jar");
        nginx = NginxServer.start(NginxServer.Options.defaults().withAccessLog());
        // The sizes JMeter must report: nginx's real status line + headers + the 18-byte body, measured on a socket.
        keepAliveResponseBytes = HttpExchange.send(nginx.host(), nginx.port(), rawRequest("")).totalBytes();
        closeResponseBytes = HttpExchange.send(nginx.host(), nginx.port(), rawRequest("Connection: close\r\n")).totalBytes();
    }

    @AfterAll
    static void stopNginx() {
        if (nginx != null) {
            nginx.close();
        }
    }

    @Test
    void steppingThreadGroupReusesOneConnectionPerThread() {
        Jtl jtl = run("stepping-keepalive.jmx");

        assertSamples(jtl, keepAliveResponseBytes, rawRequest(""));
        assertAll("keep-alive: one connection per JMeter thread, shared by both samplers",
                () -> assertOneConnectionPerThread(jtl),
                () -> assertEquals(THREADS, distinct(nginx.accessLogConnections()), "TCP connections nginx accepted"));
    }

    @Test
    void concurrencyThreadGroupKeepsConnectionsAcrossIterations() {
        // Every loop of a Concurrency Thread Group user is a new thread-group iteration: stock JMeter reconnects
        // there; the Stampede samplers must keep using the thread's connection.
        Jtl jtl = run("concurrency-keepalive.jmx", Map.of("iterations", LOOPS));

        assertSamples(jtl, keepAliveResponseBytes, rawRequest(""));
        assertAll("keep-alive: one connection per JMeter thread, shared by both samplers",
                () -> assertOneConnectionPerThread(jtl),
                () -> assertEquals(THREADS, distinct(nginx.accessLogConnections()), "TCP connections nginx accepted"));
    }

    @Test
    void keepAliveOffOpensAConnectionForEverySample() {
        Jtl jtl = run("stepping-close.jmx");

        assertSamples(jtl, closeResponseBytes, rawRequest("Connection: close\r\n"));
        assertAll("keep-alive off: a connection per sample",
                () -> assertEquals(jtl.count(), jtl.connectsAboveZero(), "samples with Connect > 0"),
                () -> assertEquals(jtl.count(), distinct(nginx.accessLogConnections()), "TCP connections nginx accepted"));
    }

    private Jtl run(String plan) {
        return run(plan, Map.of());
    }

    private Jtl run(String plan, Map<String, ?> extra) {
        nginx.clearAccessLog();
        JMeterRun.Result result = JMeterRun.of(home, Plans.get(plan), work)
                .property("host", nginx.host())
                .property("port", nginx.port())
                .property("threads", THREADS)
                .property("loops", LOOPS)
                .properties(extra)
                .timeout(Duration.ofSeconds(90))
                .run();
        assertTrue(result.succeeded(), result::describe);
        Jtl jtl = Jtl.read(result.jtl());
        assertTrue(jtl.count() > 0, () -> "no samples in the JTL; " + result.describe());
        return jtl;
    }

    private static void assertSamples(Jtl jtl, int responseBytes, String rawRequestSent) {
        int perLabel = THREADS * LOOPS;
        assertAll(
                () -> assertEquals(Set.of(RAW, HTTP), jtl.labels(), "labels"),
                () -> assertEquals(perLabel, jtl.count(RAW), "RAW samples"),
                () -> assertEquals(perLabel, jtl.count(HTTP), "HTTP samples"),
                () -> assertEquals(0, jtl.errors(), () -> "failed samples, first: " + firstFailure(jtl)),
                () -> assertEquals(Set.of("200"), jtl.statusCodes(), "status codes"),
                () -> assertEquals(Set.of((long) responseBytes), jtl.distinctBytes(),
                        "bytes per sample (status line + headers + 18-byte body as nginx sent them)"),
                () -> assertEquals(Set.of((long) rawRequestSent.getBytes(StandardCharsets.US_ASCII).length),
                        distinctSentBytes(jtl.label(RAW)), "RAW sentBytes (the request text, CRLF-normalised)"),
                () -> assertTrue(jtl.rows().stream().allMatch(row -> row.sentBytes() > 0), "sentBytes > 0"),
                () -> assertTrue(jtl.rows().stream().allMatch(row -> row.latency() <= row.elapsed()),
                        "Latency <= elapsed"),
                () -> assertEquals(Set.of(nginx.url("/test.txt")), urls(jtl), "URL of both samplers"),
                () -> assertEquals(2 * perLabel, nginx.accessLogConnections().size(), "requests nginx served"));
    }

    /** Keep-alive from the JTL: per JMeter thread, only its first sample opened a connection. */
    private static void assertOneConnectionPerThread(Jtl jtl) {
        Map<String, Jtl> threads = jtl.byThread();
        assertEquals(THREADS, threads.size(), () -> "JMeter threads " + threads.keySet());
        threads.forEach((thread, samples) -> assertAll(thread,
                () -> assertEquals(2 * LOOPS, samples.count(), "samples of " + thread),
                () -> assertEquals(1, samples.connectsAboveZero(), "samples with Connect > 0 in " + thread),
                () -> assertTrue(samples.rows().get(0).connect() > 0,
                        "the first sample of " + thread + " opened the connection: " + samples.rows().get(0))));
    }

    private static String rawRequest(String extraHeaders) {
        // What the plans' RAW sampler sends once its LF line endings are normalised to CRLF.
        return "GET /test.txt HTTP/1.1\r\nHost: " + nginx.host() + ":" + nginx.port() + "\r\n"
                + "User-Agent: stampede-it\r\n" + extraHeaders + "\r\n";
    }

    private static String firstFailure(Jtl jtl) {
        return jtl.rows().stream().filter(row -> !row.success()).findFirst().map(JtlRow::toString).orElse("none");
    }

    private static Set<Long> distinctSentBytes(Jtl jtl) {
        return new HashSet<>(jtl.rows().stream().map(JtlRow::sentBytes).toList());
    }

    private static Set<String> urls(Jtl jtl) {
        return new HashSet<>(jtl.rows().stream().map(JtlRow::url).toList());
    }

    private static long distinct(List<Long> connections) {
        return connections.stream().distinct().count();
    }
}
