/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.run;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.engine.http2.Http2TestServer;
import io.stampede.it.support.Folders;
import io.stampede.it.support.FreePort;
import io.stampede.it.support.Jtl;
import io.stampede.it.support.JtlRow;
import io.stampede.it.support.NginxServer;
import io.stampede.it.support.Plans;
import io.stampede.it.support.TestCertificate;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The run summary's HTTP/2 error kinds and the doctor's HTTP/2 lines, driven through {@code ./stampede run} (as
 * StampedeRunIT drives it) with a two-sampler h2 plan: a real nginx 1.22 that ends connections with GOAWAY after
 * {@code keepalive_requests 2}, one with {@code http2_max_concurrent_streams 1}, an HTTP/1.1-only TLS port (the ALPN
 * fallback note), ports of the other transport (h2c to TLS, h2 to cleartext), and the engine's in-test Netty server
 * (plugins' test jar) for RST_STREAM, since nginx resets no stream of a client that keeps to its SETTINGS.
 */
class Http2DiagnosisIT {

    private static final String PLAN = "h2-diagnosis.jmx";
    private static final int THREADS = 2;
    private static final int LOOPS = 50;
    /** Two samplers per loop. */
    private static final int SAMPLES = 2 * THREADS * LOOPS;

    @TempDir
    Path tmp;

    private static Path certs;
    private static NginxServer nginx;
    private static int goAwayPort;
    private static int oneStreamPort;
    private static int h2Port;
    private static int http1TlsPort;
    private static int h2cPort;

    @BeforeAll
    static void startNginx() throws Exception {
        certs = Files.createTempDirectory("stampede-h2diag-");
        String tls = " " + TestCertificate.make(certs, "localhost").nginxDirectives();
        goAwayPort = FreePort.loopback();
        oneStreamPort = FreePort.loopback();
        h2Port = FreePort.loopback();
        http1TlsPort = FreePort.loopback();
        h2cPort = FreePort.loopback();
        String root = " root $dir/html; }\n";
        nginx = NginxServer.start(NginxServer.Options.defaults().withSite(
                "server { listen 127.0.0.1:" + goAwayPort + " http2; keepalive_requests 2;" + root
                + "    server { listen 127.0.0.1:" + oneStreamPort + " http2; http2_max_concurrent_streams 1;" + root
                + "    server { listen 127.0.0.1:" + h2Port + " ssl http2;" + tls + root
                + "    server { listen 127.0.0.1:" + http1TlsPort + " ssl;" + tls + root
                + "    server { listen 127.0.0.1:" + h2cPort + " http2;" + root, ""));
    }

    @AfterAll
    static void stopNginx() {
        if (nginx != null) {
            nginx.close();
        }
        if (certs != null) {
            Folders.deleteQuietly(certs);
        }
    }

    /** {@code ./stampede run} of the plan against 127.0.0.1:port with these -J properties; no dashboard. */
    private static StampedeRunIT.Result run(Path out, int port, Map<String, Object> properties) throws Exception {
        List<String> args = new ArrayList<>(List.of("run", Plans.get(PLAN).toString(), "--out", out.toString(),
                "--no-dashboard", "--host", "127.0.0.1", "--port", Integer.toString(port),
                "-J", "threads=" + THREADS, "-J", "loops=" + LOOPS));
        properties.forEach((k, v) -> args.addAll(List.of("-J", k + "=" + v)));
        StampedeRunIT.Result r = StampedeRunIT.stampede(args, 180);
        assertEquals(0, r.exit(), "a run that met errors completed, so exit 0: " + r.describe());
        return r;
    }

    /** The count on the summary's line of an error kind, e.g. "    HTTP/2 GOAWAY: stream not processed    114". */
    private static long kindCount(StampedeRunIT.Result r, String label) {
        Matcher m = Pattern.compile("(?m)^    " + Pattern.quote(label) + "\\s+([\\d,]+)$").matcher(r.stdout());
        assertTrue(m.find(), "the summary counts '" + label + "':\n" + r.describe());
        return Long.parseLong(m.group(1).replace(",", ""));
    }

    private static String share(long n, long of) {
        return String.format(java.util.Locale.ROOT, "%,d of %,d samples (%.2f%%)", n, of, 100.0 * n / of);
    }

    /** Every label has all its samples, and samples succeeded after the first failure: the test went on. */
    private static void keptRunning(Jtl jtl) {
        long firstFailure = jtl.rows().stream().filter(r -> !r.success()).mapToLong(JtlRow::timeStamp).min()
                .orElseThrow();
        assertAll(
                () -> assertEquals(SAMPLES, jtl.count(), "threads x loops x 2 samplers, errors or not"),
                () -> assertEquals(THREADS * LOOPS, jtl.count("GET a")),
                () -> assertEquals(THREADS * LOOPS, jtl.count("GET b")),
                () -> assertTrue(jtl.rows().stream().anyMatch(r -> r.success() && r.timeStamp() > firstFailure),
                        "samples succeeded after the first failure"));
    }

    @Test
    void nginxsGoAwayAtKeepaliveRequestsIsCountedWithItsFixAndTheFixWorks() throws Exception {
        StampedeRunIT.Result r = run(tmp.resolve("goaway"), goAwayPort, Map.of("streams", 10));
        Jtl jtl = Jtl.read(tmp.resolve("goaway/results.jtl"));
        long errors = jtl.errors();
        assertTrue(errors > 0, "10 streams on a connection nginx ends after 2 requests: " + r.describe());
        keptRunning(jtl);
        assertAll(
                () -> assertTrue(jtl.rows().stream().filter(row -> !row.success()).allMatch(row ->
                        row.responseCode().endsWith("GoAwayException")
                        && row.responseMessage().contains("GOAWAY from the server (NO_ERROR (0x0), last stream ")),
                        "every failure is a GOAWAY with its code"),
                () -> assertEquals(errors, kindCount(r, "HTTP/2 GOAWAY: stream not processed")),
                () -> assertTrue(r.stdout().contains("  server: " + share(errors, SAMPLES) + " failed after the"
                        + " server's HTTP/2 GOAWAY (NO_ERROR (0x0) " + errors + "): their streams were above its last"
                        + " stream id"), r.describe()),
                () -> assertTrue(r.stdout().contains("(nginx keepalive_requests, which since 1.19.7 also ends HTTP/2"
                        + " connections); fix: raise that limit, or set stampede.h2.max_requests below it"),
                        r.describe()));

        // The doctor's fix: Stampede ends each connection itself after 2 requests, before nginx's GOAWAY.
        StampedeRunIT.Result fixed = run(tmp.resolve("fixed"), goAwayPort, Map.of("streams", 10, "max_requests", 2));
        Jtl after = Jtl.read(tmp.resolve("fixed/results.jtl"));
        assertAll(
                () -> assertEquals(SAMPLES, after.count()),
                () -> assertEquals(0, after.errors(), fixed.describe()),
                () -> assertFalse(fixed.stdout().contains("GOAWAY"), fixed.describe()));
    }

    @Test
    void nginxWithOneStreamAtATimeResetsNoStreamOfAClientKeepingToItsSettings() throws Exception {
        StampedeRunIT.Result r = run(tmp.resolve("one"), oneStreamPort, Map.of("streams", 10));
        Jtl jtl = Jtl.read(tmp.resolve("one/results.jtl"));
        assertAll(
                () -> assertEquals(SAMPLES, jtl.count()),
                // The truth for nginx 1.22: it answers more streams than http2_max_concurrent_streams with
                // RST_STREAM REFUSED_STREAM, but our client waits for its SETTINGS and never opens more.
                () -> assertEquals(0, jtl.errors(), r.describe()),
                () -> assertTrue(r.stdout().contains("errors     0 (0.000%)"), r.describe()),
                () -> assertFalse(r.stdout().contains("stream reset"), r.describe()));
    }

    @Test
    void h2AgainstAnHttp11OnlyTlsPortIsANoteNotAnError() throws Exception {
        StampedeRunIT.Result r = run(tmp.resolve("fallback"), http1TlsPort,
                Map.of("protocol", "h2", "tls", true, "streams", 4));
        Jtl jtl = Jtl.read(tmp.resolve("fallback/results.jtl"));
        assertAll(
                () -> assertEquals(SAMPLES, jtl.count()),
                () -> assertEquals(0, jtl.errors(), r.describe()),
                () -> assertTrue(r.stdout().contains("  protocol   http/1.1 (ALPN fallback) " + SAMPLES), r.describe()),
                () -> assertTrue(r.stdout().contains("  note: " + share(SAMPLES, SAMPLES) + " asked for h2 and spoke"
                        + " HTTP/1.1: the server did not choose h2 in ALPN. Not an error"), r.describe()),
                () -> assertTrue(r.stdout().contains("enable it on the server's TLS port (nginx 'listen 443 ssl"
                        + " http2'"), r.describe()));
    }

    @Test
    void streamResetsAreCountedByTheirCodeWithItsMeaning() throws Exception {
        try (Http2TestServer server = new Http2TestServer(0, false)) {
            StampedeRunIT.Result r = run(tmp.resolve("reset"), server.address().getPort(),
                    Map.of("streams", 4, "path_b", "/reset"));
            Jtl jtl = Jtl.read(tmp.resolve("reset/results.jtl"));
            int resets = THREADS * LOOPS;
            keptRunning(jtl);
            assertAll(
                    () -> assertEquals(0, jtl.label("GET a").errors(), r.describe()),
                    () -> assertEquals(resets, jtl.label("GET b").errors(), "the server resets every /reset"),
                    () -> assertTrue(jtl.label("GET b").rows().stream().allMatch(row ->
                            row.responseCode().endsWith("StreamResetException")
                            && row.responseMessage().contains("REFUSED_STREAM (0x7)")), "named with the code"),
                    () -> assertEquals(resets, kindCount(r, "HTTP/2 stream reset by the server (RST_STREAM)")),
                    () -> assertTrue(r.stdout().contains("  server: " + share(resets, SAMPLES) + " failed with an"
                            + " HTTP/2 stream reset (RST_STREAM from the server): REFUSED_STREAM (0x7) " + resets),
                            r.describe()),
                    () -> assertTrue(r.stdout().contains("    REFUSED_STREAM (0x7): the server refused the stream"
                            + " before processing it (safe to retry): more streams than it allows at once"),
                            r.describe()),
                    () -> assertTrue(server.streams.get() >= SAMPLES, "the server saw every stream"));
        }
    }

    @ParameterizedTest(name = "{0} to a port of the other transport")
    @CsvSource({
        "h2c, false, h2, did not answer in HTTP/2",
        // What the port sent is quoted only on the JDK's TLS; BoringSSL's exception carries no bytes.
        "h2, true, cleartext, did not answer in TLS (it sent ",
        "h2, true, h2c, did not answer in TLS (it sent "})
    void aProtocolThatDoesNotMatchThePortFailsEverySampleAtOnceNamingTheFix(String protocol, boolean tls,
            String port, String named) throws Exception {
        int p = switch (port) {
            case "h2" -> h2Port;
            case "h2c" -> h2cPort;
            default -> nginx.port();
        };
        long start = System.nanoTime();
        StampedeRunIT.Result r = run(tmp.resolve("wrong"), p, Map.of("protocol", protocol, "tls", tls, "loops", 3));
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
        Jtl jtl = Jtl.read(tmp.resolve("wrong/results.jtl"));
        int samples = 2 * THREADS * 3;
        assertAll(
                () -> assertEquals(samples, jtl.count()),
                () -> assertEquals(samples, jtl.errors(), "every sample fails"),
                () -> assertTrue(jtl.rows().stream().allMatch(row ->
                        row.responseCode().endsWith("Http2ProtocolException") && row.responseMessage().contains(named)),
                        () -> "named failures: " + jtl.rows().get(0)),
                // The plan's connect timeout is 20 s (generous: a loaded CI machine), its response timeout 30 s: a
                // failure below both is the server's answer, not a hang.
                () -> assertTrue(jtl.rows().stream().allMatch(row -> row.elapsed() < 20_000),
                        () -> "a clear failure, not a timeout: " + jtl.rows()),
                () -> assertTrue(seconds < 90, "the run took " + seconds + " s"),
                () -> assertEquals(samples, kindCount(r, "HTTP/2 protocol error")),
                () -> assertTrue(r.stdout().contains("  server: " + share(samples, samples) + " failed with an HTTP/2"
                        + " protocol error, e.g. "), r.describe()),
                () -> assertTrue(r.stdout().contains("    fix: match stampede.protocol to the server's port: h2c needs"
                        + " a cleartext HTTP/2 port (nginx 'listen PORT http2'), h2 a TLS port offering h2 in ALPN"),
                        r.describe()));
    }
}
