/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.httprequest;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.stampede.engine.Engine;
import org.apache.jmeter.protocol.http.control.AuthManager;
import org.apache.jmeter.protocol.http.control.Authorization;
import org.apache.jmeter.protocol.http.control.CookieManager;
import org.apache.jmeter.protocol.http.control.Header;
import org.apache.jmeter.protocol.http.control.HeaderManager;
import org.apache.jmeter.protocol.http.sampler.HTTPSampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.apache.jmeter.util.JMeterUtils;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.Appender;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configurator;
import org.apache.logging.log4j.core.config.Property;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Whole samples of {@link EngineHttpRequest} against a real HTTP server (the JDK's): managers, decoding, redirects,
 * Digest, the result's fields, failures named as stock names them, and the thread's connections kept or dropped.
 */
class EngineHttpRequestTest {
    private HttpServer server;
    private final List<String> requests = new CopyOnWriteArrayList<>();
    private final Set<Integer> clientPorts = ConcurrentHashMap.newKeySet();
    private final List<String> userAgents = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws IOException {
        JMeterContextService.getContext().setVariables(new JMeterVariables());
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 50);
        server.createContext("/", this::handle);
        server.start();
    }

    @AfterEach
    void stop() {
        EngineLink.closeCurrentThread();
        Engine.shutdown();
        server.stop(0);
    }

    private void handle(HttpExchange x) throws IOException {
        clientPorts.add(x.getRemoteAddress().getPort());
        userAgents.add(String.valueOf(x.getRequestHeaders().getFirst("User-Agent")));
        String path = x.getRequestURI().toString();
        requests.add(x.getRequestMethod() + " " + path + " cookie=" + x.getRequestHeaders().getFirst("Cookie")
                + " auth=" + x.getRequestHeaders().getFirst("Authorization"));
        x.getRequestBody().readAllBytes();
        switch (x.getRequestURI().getPath()) {
            case "/login" -> {
                x.getResponseHeaders().add("Set-Cookie", "session=abc; Path=/");
                send(x, 200, "logged in");
            }
            case "/gz" -> {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                try (GZIPOutputStream g = new GZIPOutputStream(out)) {
                    g.write("unzipped body".getBytes(StandardCharsets.UTF_8));
                }
                x.getResponseHeaders().add("Content-Encoding", "gzip");
                x.getResponseHeaders().add("Content-Type", "text/plain; charset=UTF-8");
                x.sendResponseHeaders(200, out.size());
                x.getResponseBody().write(out.toByteArray());
                x.close();
            }
            case "/chunked" -> {
                x.getResponseHeaders().add("Content-Type", "text/plain; charset=UTF-8");
                x.sendResponseHeaders(200, 0); // no length: the JDK server sends the body chunked
                try (OutputStream out = x.getResponseBody()) {
                    for (String part : new String[] {"first ", "second ", "third"}) {
                        out.write(part.getBytes(StandardCharsets.UTF_8));
                        out.flush();
                    }
                }
            }
            case "/tofile" -> {
                x.getResponseHeaders().add("Location", "file:///etc/hostname");
                send(x, 302, "");
            }
            case "/bomb" -> {
                x.getResponseHeaders().add("Content-Encoding", "gzip");
                x.sendResponseHeaders(200, Bomb.BYTES.length);
                try (OutputStream out = x.getResponseBody()) {
                    out.write(Bomb.BYTES);
                }
            }
            case "/hop" -> {
                x.getResponseHeaders().add("Location", "/final");
                send(x, 302, "");
            }
            case "/digest" -> {
                if (x.getRequestHeaders().getFirst("Authorization") == null) {
                    x.getResponseHeaders().add("WWW-Authenticate",
                            "Digest realm=\"r\", qop=\"auth\", nonce=\"n0nce\", opaque=\"op\"");
                    send(x, 401, "who are you");
                } else {
                    send(x, 200, "welcome");
                }
            }
            default -> send(x, 200, "final");
        }
    }

    /** 10 MB of gzip that inflate to 10 GiB of zeros, built once, when a test asks for it. */
    private static final class Bomb {
        static final byte[] BYTES = build();

        private static byte[] build() {
            // One gzip member of 16 MiB of zeros is 16 KiB; 640 of them back to back are one valid gzip body.
            try {
                ByteArrayOutputStream member = new ByteArrayOutputStream();
                try (GZIPOutputStream g = new GZIPOutputStream(member)) {
                    byte[] zeros = new byte[1024 * 1024];
                    for (int i = 0; i < 16; i++) {
                        g.write(zeros);
                    }
                }
                ByteArrayOutputStream body = new ByteArrayOutputStream();
                while (body.size() < 10_000_000) {
                    member.writeTo(body);
                }
                return body.toByteArray();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private static void send(HttpExchange x, int status, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        x.sendResponseHeaders(status, b.length == 0 ? -1 : b.length);
        try (OutputStream out = x.getResponseBody()) {
            out.write(b);
        }
    }

    private EngineHttpRequest sampler(String path) {
        EngineHttpRequest s = new EngineHttpRequest();
        s.setName("engine");
        s.setProtocol("http");
        s.setDomain("127.0.0.1");
        s.setPort(server.getAddress().getPort());
        s.setPath(path);
        s.setMethod("GET");
        s.setUseKeepAlive(true);
        s.setFollowRedirects(true);
        return s;
    }

    private static EngineHttpRequest acceptingGzip(EngineHttpRequest s) {
        HeaderManager headers = new HeaderManager();
        headers.add(new Header("Accept-Encoding", "gzip"));
        s.setHeaderManager(headers);
        return s;
    }

    private static HTTPSampleResult sample(EngineHttpRequest s) {
        return (HTTPSampleResult) s.sample(null);
    }

    @Test
    void cookiesGoIntoTheCookieManagerAndOutWithTheNextRequest() {
        CookieManager cookies = new CookieManager();
        cookies.testStarted();
        EngineHttpRequest login = sampler("/login");
        login.setCookieManager(cookies);
        HTTPSampleResult r = sample(login);
        assertTrue(r.isSuccessful(), r.getResponseCode());
        assertEquals("logged in", r.getResponseDataAsString());
        assertEquals(1, cookies.getCookieCount());
        assertEquals("abc", cookies.get(0).getValue());
        EngineHttpRequest next = sampler("/page");
        next.setCookieManager(cookies);
        HTTPSampleResult r2 = sample(next);
        assertEquals("session=abc", r2.getCookies());
        assertTrue(requests.get(1).contains("cookie=session=abc"), requests.toString());
        assertEquals(1, clientPorts.size(), "both samples on the thread's one keep-alive connection");
        assertTrue(r.getConnectTime() >= 1, "the first sample connected");
        assertEquals(0, r2.getConnectTime(), "the second reused the connection");
    }

    @Test
    void theJavaImplementationRunsOnStocksJavaImplementationAndHttpClient4OnTheEngine() {
        EngineHttpRequest java = sampler("/page");
        java.setName("java implementation");
        java.setImplementation("Java");
        HTTPSampleResult r = sample(java);
        assertEquals("final", r.getResponseDataAsString());
        assertTrue(userAgents.get(0).startsWith("Java/"), "sent by HttpURLConnection: " + userAgents);
        EngineHttpRequest hc4 = sampler("/page");
        hc4.setImplementation("HttpClient4");
        HTTPSampleResult r2 = sample(hc4);
        assertEquals("final", r2.getResponseDataAsString());
        assertTrue(userAgents.get(1).startsWith(OutgoingRequest.USER_AGENT), "sent by the engine: " + userAgents);
    }

    @Test
    void theJavaImplementationChosenByThePlanLogsOneInfoPerSamplerAndRunAndNoWarn() {
        List<LogEvent> events = new CopyOnWriteArrayList<>();
        String loggerName = StockImplementations.class.getName();
        Level before = LogManager.getLogger(loggerName).getLevel();
        Configurator.setLevel(loggerName, Level.INFO);
        org.apache.logging.log4j.core.Logger logger =
                (org.apache.logging.log4j.core.Logger) LogManager.getLogger(loggerName);
        Appender capture = new AbstractAppender("capture", null, null, true, Property.EMPTY_ARRAY) {
            @Override
            public void append(LogEvent event) {
                events.add(event.toImmutable());
            }
        };
        capture.start();
        logger.addAppender(capture);
        try {
            EngineHttpRequest inPlan = sampler("/page");
            inPlan.setName("java");
            inPlan.setImplementation("Java");
            inPlan.testStarted();
            for (int thread = 0; thread < 3; thread++) {
                // Each JMeter thread samples a clone of the element in the plan.
                EngineHttpRequest clone = (EngineHttpRequest) inPlan.clone();
                assertEquals("final", sample(clone).getResponseDataAsString());
                assertEquals("final", sample(clone).getResponseDataAsString());
            }
            assertTrue(userAgents.stream().allMatch(a -> a.startsWith("Java/")), "all on Java: " + userAgents);
            assertEquals(List.of(), events.stream().filter(e -> e.getLevel().isMoreSpecificThan(Level.WARN))
                    .map(e -> e.getMessage().getFormattedMessage()).toList(), "no WARN for what the plan chose");
            assertEquals(1, events.size(), "one INFO for the sampler in this run: " + events);
            inPlan.testEnded();
            inPlan.testStarted();
            sample((EngineHttpRequest) inPlan.clone());
            assertEquals(2, events.size(), "the next run says it once again: " + events);
        } finally {
            logger.removeAppender(capture);
            capture.stop();
            Configurator.setLevel(loggerName, before);
        }
    }

    @Test
    void aFileUrlIsReadByStocksFileImplementation(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("page.html"), "<html><body><img src=\"pic.png\"></body></html>");
        EngineHttpRequest s = new EngineHttpRequest();
        s.setName("saved page");
        s.setProtocol("file");
        s.setPath(dir.resolve("page.html").toString());
        s.setMethod("GET");
        HTTPSampleResult r = sample(s);
        assertTrue(r.isSuccessful(), r.getResponseCode() + " " + r.getResponseMessage() + "\n"
                + r.getResponseDataAsString());
        assertEquals("<html><body><img src=\"pic.png\"></body></html>", r.getResponseDataAsString());
        assertEquals("file", r.getURL().getProtocol());
        assertTrue(requests.isEmpty(), "nothing went to the network: " + requests);
    }

    @Test
    void aRedirectToAFileUrlFailsAsStocksHttpClient4FailsNotWithANullPointerException() {
        HTTPSampleResult r = sample(sampler("/tofile"));
        assertEquals(2, r.getSubResults().length, "the 302 and the file: URL it names");
        HTTPSampleResult file = (HTTPSampleResult) r.getSubResults()[1];
        assertEquals("file:/etc/hostname", file.getUrlAsString());
        assertEquals("Non HTTP response code: org.apache.http.client.ClientProtocolException", file.getResponseCode(),
                "an http element's implementation is HttpClient 4, in stock too: " + file.getResponseMessage());
    }

    @Test
    void aChunkedBodyIsKeptWholeItsFramingCountedButNeverTakenForBytesOverTheLimit() {
        HTTPSampleResult r = sample(sampler("/chunked"));
        assertEquals("200", r.getResponseCode(), r.getResponseMessage());
        assertTrue(r.isSuccessful());
        assertEquals("first second third", r.getResponseDataAsString());
        assertTrue(r.getBodySizeAsLong() > "first second third".length(),
                "chunk sizes and CRLFs are counted as received: " + r.getBodySizeAsLong());
    }

    @Test
    void aGzipBodyIsDecodedAndTheResultFilledAsStockFillsIt() {
        HTTPSampleResult r = sample(acceptingGzip(sampler("/gz")));
        assertEquals("200", r.getResponseCode());
        assertEquals("OK", r.getResponseMessage());
        assertEquals("unzipped body", r.getResponseDataAsString());
        assertEquals("text/plain; charset=UTF-8", r.getContentType());
        assertEquals("UTF-8", r.getDataEncodingNoDefault());
        assertTrue(r.getResponseHeaders().startsWith("HTTP/1.1 200 OK\n"), r.getResponseHeaders());
        assertTrue(r.getResponseHeaders().contains("Content-encoding: gzip\n"), r.getResponseHeaders());
        assertTrue(r.getRequestHeaders().contains("Accept-Encoding: gzip\n"), r.getRequestHeaders());
        assertTrue(r.getRequestHeaders().startsWith("Connection: keep-alive\n"), r.getRequestHeaders());
        assertTrue(r.getBodySizeAsLong() > 13, "the encoded size on the wire: " + r.getBodySizeAsLong());
        assertTrue(r.getHeadersSize() > 40 && r.getSentBytes() > 60, r.getHeadersSize() + " " + r.getSentBytes());
        assertEquals("http://127.0.0.1:" + server.getAddress().getPort() + "/gz", r.getUrlAsString());
    }

    @Test
    void aGzipBombFailsItsSampleWithAClearMessageAndTheNextSampleRuns() {
        HTTPSampleResult r = sample(acceptingGzip(sampler("/bomb")));
        assertFalse(r.isSuccessful());
        assertEquals("Non HTTP response code: io.stampede.httprequest.BodyTooLargeException", r.getResponseCode());
        assertTrue(r.getResponseMessage().startsWith("Non HTTP response message: the response body ("
                + Bomb.BYTES.length + " bytes of Content-Encoding gzip) decodes to more than "
                + "stampede.httprequest.max_body_bytes"), r.getResponseMessage());
        assertEquals(Bomb.BYTES.length, r.getBodySizeAsLong(), "the bytes that arrived are counted");
        assertTrue(r.getResponseHeaders().startsWith("HTTP/1.1 200 OK\n"), r.getResponseHeaders());

        HTTPSampleResult next = sample(sampler("/next"));
        assertTrue(next.isSuccessful(), next.getResponseCode() + " " + next.getResponseMessage());
        assertEquals("final", next.getResponseDataAsString());
    }

    @Test
    void redirectsAreFollowedByJMeterOrAutomaticallyByTheEngine() {
        HTTPSampleResult followed = sample(sampler("/hop"));
        assertEquals(2, followed.getSubResults().length, "JMeter's own follow-redirects: the 302 and the target");
        assertEquals("final", followed.getResponseDataAsString());
        EngineHttpRequest auto = sampler("/hop");
        auto.setFollowRedirects(false);
        auto.setAutoRedirects(true);
        HTTPSampleResult r = sample(auto);
        assertEquals(0, r.getSubResults().length);
        assertEquals("200", r.getResponseCode());
        assertTrue(r.getUrlAsString().endsWith("/final"), r.getUrlAsString());
        EngineHttpRequest none = sampler("/hop");
        none.setFollowRedirects(false);
        HTTPSampleResult plain = sample(none);
        assertEquals("302", plain.getResponseCode());
        assertEquals("/final", plain.getRedirectLocation());
    }

    @Test
    void aDigestChallengeIsAnsweredInTheSameSample() {
        AuthManager auth = new AuthManager();
        Authorization a = new Authorization();
        a.setURL("http://127.0.0.1:" + server.getAddress().getPort() + "/");
        a.setUser("u");
        a.setPass("p");
        a.setDomain("");
        a.setRealm("");
        a.setMechanism(AuthManager.Mechanism.DIGEST);
        auth.addAuth(a);
        EngineHttpRequest s = sampler("/digest");
        s.setAuthManager(auth);
        HTTPSampleResult r = sample(s);
        assertEquals("200", r.getResponseCode());
        assertEquals("welcome", r.getResponseDataAsString());
        assertEquals(2, requests.size(), requests.toString());
        assertTrue(requests.get(0).endsWith("auth=null"), requests.toString());
        assertTrue(requests.get(1).contains("auth=Digest username=\"u\", realm=\"r\", nonce=\"n0nce\""),
                requests.toString());
        assertTrue(r.getRequestHeaders().contains("Authorization: Digest "), r.getRequestHeaders());
    }

    @Test
    void aRefusedConnectionIsNamedAsStockNamesIt() throws IOException {
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        EngineHttpRequest s = sampler("/x");
        s.setPort(closed);
        HTTPSampleResult r = sample(s);
        assertFalse(r.isSuccessful());
        assertEquals("Non HTTP response code: org.apache.http.conn.HttpHostConnectException", r.getResponseCode());
        assertTrue(r.getResponseMessage().contains("Connection refused"), r.getResponseMessage());
        assertTrue(r.getRequestHeaders().contains("Host: 127.0.0.1:" + closed), r.getRequestHeaders());
    }

    @Test
    void aCloseBeforeAnyByteIsStocksNoHttpResponseAndACloseInTheHeadersAConnectionClosed() throws Exception {
        try (ServerSocket closing = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            closing.setSoTimeout(10_000);
            Thread server = new Thread(() -> {
                for (String reply : new String[] {"", "HTTP/1.1 200 OK\r\nContent-Le"}) {
                    try (Socket c = closing.accept()) {
                        c.getInputStream().read(new byte[4096]);
                        c.getOutputStream().write(reply.getBytes(StandardCharsets.US_ASCII));
                    } catch (IOException e) {
                        return; // the sample fails differently, and says so
                    }
                }
            });
            server.start();
            EngineHttpRequest s = sampler("/x");
            s.setPort(closing.getLocalPort());
            HTTPSampleResult none = sample(s);
            assertEquals("Non HTTP response code: org.apache.http.NoHttpResponseException", none.getResponseCode(),
                    none.getResponseMessage());
            HTTPSampleResult cut = sample(s);
            assertEquals("Non HTTP response code: org.apache.http.ConnectionClosedException", cut.getResponseCode(),
                    cut.getResponseMessage());
            assertTrue(cut.getResponseMessage().contains("inside the response headers"), cut.getResponseMessage());
            server.join(10_000);
        }
    }

    @Test
    void aNewUserOnEachIterationGetsNewConnectionsTheSameUserKeepsThem() {
        EngineHttpRequest s = sampler("/page");
        JMeterVariables vars = JMeterContextService.getContext().getVariables();
        sample(s);
        vars.putObject("__jmv_SAME_USER", Boolean.TRUE);
        s.testIterationStart(null);
        sample(s);
        assertEquals(1, clientPorts.size(), "same user: the connection is kept");
        vars.putObject("__jmv_SAME_USER", Boolean.FALSE);
        s.testIterationStart(null);
        sample(s);
        assertEquals(2, clientPorts.size(), "new user: a new connection");
        s.threadFinished();
        sample(s);
        assertEquals(3, clientPorts.size(), "threadFinished closed the thread's connections");
    }

    /** Sets JMeter properties for one test (they are global to the JVM) and removes them after {@code body}. */
    private static void withProperties(String text, Runnable body) throws IOException {
        if (JMeterUtils.getJMeterProperties() == null) {
            Path props = Files.createTempFile("jmeter", ".properties");
            JMeterUtils.loadJMeterProperties(props.toString());
            Files.delete(props);
        }
        Properties p = JMeterUtils.getJMeterProperties();
        Properties added = new Properties();
        added.load(new java.io.StringReader(text));
        p.putAll(added);
        try {
            body.run();
        } finally {
            added.keySet().forEach(p::remove);
        }
    }

    /** Runs one sample of a fresh clone on each of {@code users} threads, one after the other; their results. */
    private List<HTTPSampleResult> oneSampleEach(int users, String path) throws InterruptedException {
        List<HTTPSampleResult> results = new CopyOnWriteArrayList<>();
        for (int u = 0; u < users; u++) {
            Thread t = new Thread(() -> {
                JMeterContextService.getContext().setVariables(new JMeterVariables());
                EngineHttpRequest s = sampler(path);
                results.add(sample(s));
                // The user thinks: it holds its connection (own) or nothing (shared) until the test ends.
            });
            t.start();
            t.join(10_000);
        }
        return results;
    }

    @Test
    void withEngineSharingUsersBorrowFromThePoolInsteadOfOpeningOneConnectionEach() throws Exception {
        withProperties("stampede.connection_sharing=engine\nstampede.pool_size=2\n", () -> {
            try {
                List<HTTPSampleResult> results = oneSampleEach(5, "/page");
                assertEquals(5, results.size());
                results.forEach(r -> assertTrue(r.isSuccessful(), r.getResponseMessage()));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        assertEquals(1, clientPorts.size(), "five users one after the other reuse the pool's one idle connection");
    }

    @Test
    void withoutSharingEachUserKeepsItsOwnConnection() throws Exception {
        List<HTTPSampleResult> results = oneSampleEach(3, "/page");
        results.forEach(r -> assertTrue(r.isSuccessful(), r.getResponseMessage()));
        assertEquals(3, clientPorts.size(), "each thread opened its own connection");
    }

    @Test
    void anUnknownIoModeFailsTheSampleNamingTheProperty() throws Exception {
        withProperties("stampede.io_mode=enigne\n", () -> {
            try {
                HTTPSampleResult r = oneSampleEach(1, "/page").get(0);
                assertFalse(r.isSuccessful());
                assertTrue(r.getResponseDataAsString().contains("stampede.io_mode: 'enigne' is not an I/O mode"),
                        r.getResponseDataAsString());
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        assertTrue(requests.isEmpty(), "nothing was sent");
    }
}
