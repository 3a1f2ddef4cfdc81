/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.engine;

import io.stampede.it.support.Folders;
import io.stampede.it.support.FreePort;
import io.stampede.it.support.Http2AccessLog;
import io.stampede.it.support.Http2AccessLog.Line;
import io.stampede.it.support.JMeterHome;
import io.stampede.it.support.JMeterRun;
import io.stampede.it.support.Jtl;
import io.stampede.it.support.JtlRow;
import io.stampede.it.support.NginxServer;
import io.stampede.it.support.Plans;
import io.stampede.it.support.TestCertificate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Both Stampede samplers over HTTP/2 in real JMeter plans against a real nginx (Debian's nginx-light 1.22): h2 over
 * TLS with ALPN ({@code listen ... ssl http2}, a self-signed certificate made by openssl here), h2c by prior
 * knowledge ({@code listen ... http2} on cleartext), a TLS port without http2 (the ALPN fallback to HTTP/1.1), a port
 * that allows one stream at a time, under the Stepping and the Concurrency Thread Groups. nginx logs, per request,
 * its connection serial number, {@code $http2} (h2, h2c or empty for HTTP/1.1) and the request's number on its
 * connection, so the test counts on the server's side what went over which connection and protocol.
 */
class Http2IT {
    private static final int THREADS = 4;
    private static final int LOOPS = 200;
    private static final String RAW = "RAW GET /test.txt";
    private static final String HTTP = "HTTP GET /test.txt";

    private static Path dir;
    private static NginxServer nginx;
    private static int h2Port;
    private static int h2cPort;
    private static int http1TlsPort;
    private static int oneStreamPort;

    @BeforeAll
    static void startNginx() throws Exception {
        dir = Files.createTempDirectory("stampede-h2-");
        TestCertificate cert = TestCertificate.make(dir, "localhost");
        h2Port = FreePort.loopback();
        h2cPort = FreePort.loopback();
        http1TlsPort = FreePort.loopback();
        oneStreamPort = FreePort.loopback();
        String site = "access_log " + dir.resolve("access.log") + " h2; root $dir/html;";
        String tls = cert.nginxDirectives() + " ";
        String http = "log_format h2 " + Http2AccessLog.FORMAT + "; "
                + server(h2Port + " ssl http2", tls + site)
                + server(h2cPort + " http2", site)
                + server(http1TlsPort + " ssl", tls + site)
                + server(oneStreamPort + " http2", "http2_max_concurrent_streams 1; " + site);
        nginx = NginxServer.start(NginxServer.Options.defaults().withSite(http, ""));
    }

    private static String server(String listen, String directives) {
        return "server { listen 127.0.0.1:" + listen + "; " + directives + " } ";
    }

    @AfterAll
    static void stopNginx() {
        if (nginx != null) {
            nginx.close();
        }
        if (dir != null) {
            Folders.deleteQuietly(dir);
        }
    }

    private static List<Line> log(int port) throws IOException {
        return Http2AccessLog.read(dir.resolve("access.log"), port);
    }

    private static Jtl run(String plan, Path work, Map<String, Object> props) {
        JMeterRun.Result r = JMeterRun.of(JMeterHome.fromStampedeRoot(), Plans.get(plan), work)
                .property("host", "127.0.0.1").property("threads", THREADS).property("loops", LOOPS)
                .property("iterations", LOOPS).property("sample_variables", "stampede_protocol").properties(props)
                .timeout(Duration.ofSeconds(120)).run();
        assertTrue(r.succeeded(), r.describe());
        return Jtl.read(r.jtl());
    }

    /** The distinct values of the stampede_protocol column (sample_variables). */
    private static Set<String> protocols(Jtl jtl) {
        return jtl.rows().stream().map(r -> r.get("stampede_protocol")).collect(Collectors.toSet());
    }

    private static String firstFailure(Jtl jtl) {
        return jtl.rows().stream().filter(r -> !r.success()).map(JtlRow::toString).findFirst().orElse("none");
    }

    private static void assertExact(Jtl jtl, int connsPerSampler) {
        int perLabel = THREADS * LOOPS;
        assertAll(
                () -> assertEquals(Set.of(RAW, HTTP), jtl.labels()),
                () -> assertEquals(perLabel, jtl.count(RAW), "RAW samples"),
                () -> assertEquals(perLabel, jtl.count(HTTP), "HTTP samples"),
                () -> assertEquals(0, jtl.errors(), () -> "failed samples, first: " + firstFailure(jtl)),
                () -> assertEquals(Set.of("200"), jtl.statusCodes()),
                () -> assertEquals(THREADS * connsPerSampler, jtl.label(RAW).connectsAboveZero(),
                        "Connect > 0 only on the stream that opened each connection (RAW)"),
                () -> assertEquals(THREADS * connsPerSampler, jtl.label(HTTP).connectsAboveZero(),
                        "Connect > 0 only on the stream that opened each connection (HTTP)"),
                () -> assertTrue(jtl.rows().stream().allMatch(r -> r.bytes() > 18 && r.sentBytes() > 0),
                        "bytes = header block + DATA, sentBytes = header block"));
    }

    @Test
    void h2cUnderTheSteppingThreadGroupMultiplexesStreamsOnFewConnections() throws Exception {
        int before = log(h2cPort).size();
        // Each thread does its connections' I/O on a loop of its own here (the default from 32 streams in flight per
        // thread); the TLS test below keeps the engine's loops.
        Jtl jtl = run("h2-stepping.jmx", dir.resolve("h2c"), Map.of("port", h2cPort, "protocol", "h2c",
                "conns", 2, "streams", 10, "stampede.io_mode", "thread"));
        assertExact(jtl, 2);
        List<Line> log = log(h2cPort).subList(before, log(h2cPort).size());
        Map<Long, Long> conns = Http2AccessLog.perConnection(log);
        assertAll(
                () -> assertTrue(log.stream().allMatch(l -> l.http2().equals("h2c")), "nginx saw h2c only"),
                () -> assertEquals(Set.of("h2c"), protocols(jtl), "the JTL's protocol column"),
                () -> assertEquals(THREADS * 2 * 2, conns.size(),
                        "TCP connections: threads x 2 samplers x 2 connections; per connection: " + conns),
                // Every sample is one request; a thread that ends leaves at most connections x streams - 1
                // requests in flight, which nginx serves but no sample reports.
                () -> assertTrue(log.size() >= 2 * THREADS * LOOPS
                        && log.size() <= 2 * THREADS * LOOPS + THREADS * 2 * (2 * 10 - 1), "requests " + log.size()),
                () -> assertTrue(log.stream().mapToLong(Line::requestOnConnection).max().orElse(0) >= LOOPS / 2,
                        "many requests (streams) per connection"));
    }

    @Test
    void h2OverTlsUnderTheConcurrencyThreadGroupNegotiatesH2WithAlpn() throws Exception {
        int before = log(h2Port).size();
        Jtl jtl = run("h2-concurrency.jmx", dir.resolve("h2"), Map.of("port", h2Port, "protocol", "h2",
                "tls", true, "scheme", "https", "conns", 1, "streams", 20));
        assertExact(jtl, 1);
        List<Line> log = log(h2Port).subList(before, log(h2Port).size());
        assertAll(
                () -> assertTrue(log.stream().allMatch(l -> l.http2().equals("h2")), "nginx saw h2 only"),
                () -> assertEquals(Set.of("h2"), protocols(jtl), "the JTL's protocol column"),
                () -> assertEquals(THREADS * 2, Http2AccessLog.perConnection(log).size(),
                        "one TLS connection per thread and sampler"),
                () -> assertTrue(jtl.rows().stream().allMatch(r -> r.url().startsWith("https://127.0.0.1:" + h2Port)),
                        "https URLs"));
    }

    @Test
    void h2AgainstATlsServerWithoutHttp2FallsBackToHttp11() throws Exception {
        int before = log(http1TlsPort).size();
        Jtl jtl = run("h2-stepping.jmx", dir.resolve("fallback"), Map.of("port", http1TlsPort, "protocol", "h2",
                "tls", true, "scheme", "https", "loops", 20));
        List<Line> log = log(http1TlsPort).subList(before, log(http1TlsPort).size());
        assertAll(
                () -> assertEquals(0, jtl.errors(), () -> "failed samples, first: " + firstFailure(jtl)),
                () -> assertEquals(2 * THREADS * 20, jtl.count()),
                () -> assertTrue(log.stream().allMatch(l -> l.http2().isEmpty()), "nginx saw HTTP/1.1 only"),
                () -> assertEquals(Set.of("http/1.1 (ALPN fallback)"), protocols(jtl),
                        "every sample shows the fallback in the JTL's protocol column"),
                () -> assertEquals(2 * THREADS * 20, log.size()));
    }

    @Test
    void aServerAllowingOneStreamGetsOneAtATimeWithoutErrors() throws Exception {
        int before = log(oneStreamPort).size();
        Jtl jtl = run("h2-stepping.jmx", dir.resolve("one"), Map.of("port", oneStreamPort, "protocol", "h2c",
                "streams", 20, "loops", 50));
        List<Line> log = log(oneStreamPort).subList(before, log(oneStreamPort).size());
        assertAll(
                () -> assertEquals(0, jtl.errors(), () -> "SETTINGS_MAX_CONCURRENT_STREAMS 1 is obeyed, no "
                        + "REFUSED_STREAM; first failure: " + firstFailure(jtl)),
                () -> assertEquals(2 * THREADS * 50, jtl.count()),
                () -> assertEquals(THREADS * 2, Http2AccessLog.perConnection(log).size()));
    }

    @Test
    void h2cToATlsPortFailsAtOnceSayingTheServerDoesNotSpeakHttp2() throws Exception {
        long start = System.nanoTime();
        Jtl jtl = run("h2-stepping.jmx", dir.resolve("h2c-to-tls"), Map.of("port", h2Port, "protocol", "h2c",
                "loops", 2));
        long seconds = (System.nanoTime() - start) / 1_000_000_000L;
        assertEquals(2 * THREADS * 2, jtl.count());
        assertEquals(jtl.count(), jtl.errors());
        for (JtlRow r : jtl.rows()) {
            assertEquals("Non HTTP response code: io.stampede.engine.Http2ProtocolException", r.responseCode(),
                    r.toString());
            assertTrue(r.responseMessage().contains("did not answer in HTTP/2"), r.responseMessage());
            assertTrue(r.elapsed() < 5000, "a clear failure, not a hang: " + r);
        }
        assertTrue(seconds < 60, "took " + seconds + " s");
    }
}
