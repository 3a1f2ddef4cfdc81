/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.httprequest;

import io.stampede.it.support.Folders;
import io.stampede.it.support.FreePort;
import io.stampede.it.support.Http2AccessLog;
import io.stampede.it.support.Http2AccessLog.Line;
import io.stampede.it.support.HttpbinServer;
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
 * JMeter's HTTP Request on the engine over HTTP/2, in an unchanged stock plan (plans/httprequest-h2.jmx: HTTP Request
 * Defaults, Cookie and Header Managers, six HTTP Requests with Response Assertions) run by plain {@code jmeter -n}
 * with the switch jar and {@code -Jstampede.protocol=h2 | h2c}, against real nginx: {@code listen ... ssl http2}
 * with a certificate made here, a cleartext {@code http2} listener, a TLS listener without http2, and nginx's
 * plain HTTP/1.1 server as the baseline; nginx serves /test.txt (gzip on) and proxies the rest to Debian's httpbin
 * (a Set-Cookie then the Cookie sent back, a POST body echoed, a gzip body, two redirects followed). nginx's access
 * log ({@code $connection}, {@code $http2}) shows what arrived over which protocol on which connection.
 */
class HttpRequestHttp2IT {
    private static final int THREADS = 3;
    private static final int LOOPS = 10;
    private static final List<String> LABELS = List.of("static gzip", "set cookie", "cookie sent", "post body",
            "gzip", "redirect");
    /** Requests nginx serves per loop: one per HTTP Request, and two more for /redirect/2's redirects. */
    private static final int REQUESTS_PER_LOOP = LABELS.size() + 2;
    private static final String SWITCHED = "Upgrading class org.apache.jmeter.protocol.http.sampler.HTTPSamplerProxy"
            + " to io.stampede.httprequest.EngineHttpRequest";

    private static Path dir;
    private static Path accessLog;
    private static HttpbinServer httpbin;
    private static NginxServer nginx;
    private static int h2Port;
    private static int h2cPort;
    private static int tlsHttp1Port;

    @BeforeAll
    static void startServers() throws Exception {
        dir = Files.createTempDirectory("stampede-httprequest-h2-");
        accessLog = dir.resolve("access.log");
        TestCertificate cert = TestCertificate.make(dir, "127.0.0.1");
        Path page = Files.createDirectories(dir.resolve("site"));
        Files.writeString(page.resolve("page.html"), "<html><head><link rel=\"stylesheet\" href=\"style.css\">"
                + "<script src=\"app.js\"></script></head><body><img src=\"logo.png\">a page</body></html>");
        Files.writeString(page.resolve("style.css"), "body { color: black }");
        Files.writeString(page.resolve("app.js"), "var a = 1;");
        Files.write(page.resolve("logo.png"), new byte[] {(byte) 0x89, 'P', 'N', 'G', 13, 10, 26, 10});
        httpbin = HttpbinServer.start();
        h2Port = FreePort.loopback();
        h2cPort = FreePort.loopback();
        tlsHttp1Port = FreePort.loopback();
        String site = "access_log " + accessLog + " h2; location = /test.txt { } location /site/ { alias " + page
                + "/; } location / { proxy_pass "
                + "http://127.0.0.1:" + httpbin.port() + "; proxy_set_header Host $http_host; }";
        String http = "gzip on; gzip_min_length 1; gzip_types text/plain application/json; "
                + "log_format h2 " + Http2AccessLog.FORMAT + "; "
                + server(h2Port + " ssl http2", cert.nginxDirectives(), site)
                + server(h2cPort + " http2", "", site)
                + server(tlsHttp1Port + " ssl", cert.nginxDirectives(), site);
        nginx = NginxServer.start(NginxServer.Options.defaults().withSite(http, site));
    }

    private static String server(String listen, String tls, String site) {
        return "server { listen 127.0.0.1:" + listen + "; " + tls + " root $dir/html; " + site + " } ";
    }

    @AfterAll
    static void stopServers() {
        if (nginx != null) {
            nginx.close();
        }
        if (httpbin != null) {
            httpbin.close();
        }
        if (dir != null) {
            Folders.deleteQuietly(dir);
        }
    }

    /** Runs the stock plan on the engine (the switch jar) against {@code scheme://127.0.0.1:port}. */
    private static JMeterRun.Result run(String name, int port, String scheme, Map<String, Object> props) {
        return run("httprequest-h2.jmx", name, port, scheme, props);
    }

    private static JMeterRun.Result run(String plan, String name, int port, String scheme, Map<String, Object> props) {
        Path switchJar = JMeterHome.stampedeRoot().resolve("src/target/jmeter-home/switch/stampede-switch-to-stampede.jar");
        JMeterRun.Result r = JMeterRun.of(JMeterHome.fromStampedeRoot(), Plans.get(plan), dir.resolve(name))
                .property("search_paths", switchJar).property("host", "127.0.0.1").property("port", port)
                .property("scheme", scheme).property("threads", THREADS).property("loops", LOOPS)
                .property("sample_variables", "stampede_protocol").properties(props)
                .timeout(Duration.ofSeconds(180)).run();
        assertTrue(r.succeeded(), r.describe());
        return r;
    }

    private static Jtl jtl(JMeterRun.Result r) throws IOException {
        assertTrue(Files.readString(r.log()).contains(SWITCHED), "the stock plan ran on the engine");
        return Jtl.read(r.jtl());
    }

    private static List<Line> log(int port) throws IOException {
        return Files.exists(accessLog) ? Http2AccessLog.read(accessLog, port) : List.of();
    }

    private static List<Line> since(int port, int before) throws IOException {
        List<Line> all = log(port);
        return all.subList(before, all.size());
    }

    private static Set<String> protocols(Jtl jtl) {
        return jtl.rows().stream().map(r -> r.get("stampede_protocol")).collect(Collectors.toSet());
    }

    /** Per label, the response codes seen. */
    private static Map<String, Set<String>> codes(Jtl jtl) {
        return jtl.rows().stream().collect(Collectors.groupingBy(JtlRow::label,
                Collectors.mapping(JtlRow::responseCode, Collectors.toSet())));
    }

    /**
     * Exact sample counts and no error (the plan's assertions check every decoded body), Connect > 0 once per
     * thread (the sample that opened its connection), and nginx: every request of the run, on one connection per
     * thread, over {@code http2} ($http2: h2, h2c, or empty for HTTP/1.1).
     */
    private static void assertExact(Jtl jtl, List<Line> served, String http2) {
        String firstFailure = jtl.rows().stream().filter(r -> !r.success()).map(JtlRow::toString).findFirst()
                .orElse("none");
        assertAll(
                () -> assertEquals(Set.copyOf(LABELS), jtl.labels()),
                () -> LABELS.forEach(l -> assertEquals(THREADS * LOOPS, jtl.count(l), l)),
                () -> assertEquals(0, jtl.errors(), "failed samples, first: " + firstFailure),
                () -> assertEquals(THREADS, jtl.connectsAboveZero(), "Connect > 0 only where a connection opened"),
                () -> assertTrue(jtl.rows().stream().allMatch(r -> r.bytes() > 0 && r.sentBytes() > 0), "sizes"),
                () -> assertEquals(THREADS * LOOPS * REQUESTS_PER_LOOP, served.size(), "requests nginx served"),
                () -> assertEquals(Set.of(http2), served.stream().map(Line::http2).collect(Collectors.toSet()),
                        "nginx's $http2"),
                () -> assertEquals(THREADS, Http2AccessLog.perConnection(served).size(),
                        "one connection per thread: " + Http2AccessLog.perConnection(served)));
    }

    @Test
    void aStockPlanOverH2GivesWhatItGivesOverHttp11OnOneConnectionPerThread() throws Exception {
        int h1Before = log(nginx.port()).size();
        Jtl h1 = jtl(run("http11", nginx.port(), "http", Map.of()));
        assertExact(h1, since(nginx.port(), h1Before), "");
        assertEquals(Set.of("http/1.1"), protocols(h1));

        int h2Before = log(h2Port).size();
        Jtl h2 = jtl(run("h2", h2Port, "https", Map.of("stampede.protocol", "h2")));
        assertExact(h2, since(h2Port, h2Before), "h2");
        assertEquals(Set.of("h2"), protocols(h2), "the stampede_protocol column");
        assertEquals(codes(h1), codes(h2), "the same response codes per request (302 for the cookie's, else 200)");
        assertEquals(Set.of("302"), codes(h2).get("set cookie"));
        assertTrue(h2.label("redirect").rows().stream().allMatch(r -> r.url().equals("https://127.0.0.1:" + h2Port
                + "/get")), "the redirects were followed to /get over h2");
    }

    /**
     * "Retrieve All Embedded Resources" with parallel downloads over h2: every page and its three resources arrive over
     * h2, none fails (a failed resource fails its page), and the resources come on connections of the download pool's
     * threads, each of which is a thread of its own to the engine.
     */
    @Test
    void embeddedResourcesWithParallelDownloadsOverH2() throws Exception {
        int before = log(h2Port).size();
        Jtl jtl = jtl(run("httprequest-h2-embedded.jmx", "embedded", h2Port, "https", Map.of("stampede.protocol", "h2")));
        List<Line> served = since(h2Port, before);
        Map<Long, Long> perConnection = Http2AccessLog.perConnection(served);
        System.out.println("embedded resources over h2: " + served.size() + " requests on " + perConnection.size()
                + " connections for " + THREADS + " users: " + perConnection);
        String firstFailure = jtl.rows().stream().filter(r -> !r.success()).map(JtlRow::toString).findFirst()
                .orElse("none");
        assertAll(
                () -> assertEquals(THREADS * LOOPS, jtl.count("page")),
                () -> assertEquals(0, jtl.errors(), "failed samples, first: " + firstFailure),
                () -> assertEquals(THREADS * LOOPS * 4, served.size(), "each page and its 3 resources"),
                () -> assertEquals(Set.of("h2"), served.stream().map(Line::http2).collect(Collectors.toSet())),
                () -> assertTrue(perConnection.size() > THREADS, "the pool threads' own connections besides the"
                        + " users': " + perConnection));
    }

    @Test
    void h2cByPriorKnowledgeOnACleartextListener() throws Exception {
        int before = log(h2cPort).size();
        Jtl jtl = jtl(run("h2c", h2cPort, "http", Map.of("stampede.protocol", "h2c")));
        assertExact(jtl, since(h2cPort, before), "h2c");
        assertEquals(Set.of("h2c"), protocols(jtl));
    }

    @Test
    void h2AgainstATlsServerWithoutHttp2FallsBackToHttp11AsANoteNotAnError() throws Exception {
        int before = log(tlsHttp1Port).size();
        JMeterRun.Result r = run("fallback", tlsHttp1Port, "https", Map.of("stampede.protocol", "h2"));
        Jtl jtl = jtl(r);
        assertExact(jtl, since(tlsHttp1Port, before), "");
        assertEquals(Set.of("http/1.1 (ALPN fallback)"), protocols(jtl), "every sample says so");
        assertTrue(Files.readString(r.log()).contains("HTTP Request: the server at 127.0.0.1:" + tlsHttp1Port
                + " did not choose h2 in ALPN"), "noted in jmeter.log");
    }

    @Test
    void aBadProtocolAndH2OnACleartextUrlFailAtOnceNamingTheFix() throws Exception {
        int before = log(nginx.port()).size();
        Jtl bad = jtl(run("bad", nginx.port(), "http", Map.of("stampede.protocol", "h3", "loops", 1)));
        assertEquals(THREADS * LABELS.size(), bad.count());
        assertEquals(bad.count(), bad.errors());
        for (JtlRow row : bad.rows()) {
            assertTrue(row.responseMessage().contains("JMeter property stampede.protocol: 'h3' is not a protocol; "
                    + "enter http/1.1, h2 (HTTP/2 over TLS with ALPN) or h2c"), row.toString());
        }
        Jtl cleartext = jtl(run("h2-cleartext", nginx.port(), "http", Map.of("stampede.protocol", "h2", "loops", 1)));
        assertEquals(cleartext.count(), cleartext.errors());
        for (JtlRow row : cleartext.rows()) {
            assertEquals("Non HTTP response code: java.lang.IllegalArgumentException", row.responseCode());
            assertTrue(row.responseMessage().contains("stampede.protocol h2 is HTTP/2 over TLS, but http://127.0.0.1:"
                    + nginx.port()), row.toString());
            assertTrue(row.responseMessage().contains("use an https URL for h2, or h2c"), row.toString());
            assertTrue(row.elapsed() < 1000, "at once, not at a timeout: " + row);
        }
        assertEquals(List.of(), since(nginx.port(), before), "nothing was sent");
    }
}
