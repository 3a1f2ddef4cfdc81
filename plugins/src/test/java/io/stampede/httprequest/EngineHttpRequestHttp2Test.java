/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.httprequest;

import io.stampede.engine.Engine;
import io.stampede.engine.http2.Http2TestServer;
import io.stampede.names.PluginNames;
import org.apache.jmeter.protocol.http.sampler.HTTPSampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.apache.jmeter.util.JMeterUtils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link EngineHttpRequest} with {@code stampede.protocol} h2c against the engine's in-test HTTP/2 server: the result
 * reads like HTTP/2, the connection is the thread's, resets and GOAWAY are handled as the Stampede samplers handle
 * them, and bad settings fail naming the property and the fix. h2 over TLS with ALPN is proven against nginx in
 * HttpRequestHttp2IT.
 */
class EngineHttpRequestHttp2Test {
    private Http2TestServer server;

    @BeforeEach
    void start() {
        JMeterContextService.getContext().setVariables(new JMeterVariables());
    }

    @AfterEach
    void stop() {
        EngineLink.closeCurrentThread();
        Engine.shutdown();
        if (server != null) {
            server.close();
        }
        if (JMeterUtils.getJMeterProperties() != null) {
            JMeterUtils.getJMeterProperties().remove(PluginNames.PROTOCOL);
            JMeterUtils.getJMeterProperties().remove(PluginNames.H2_WINDOW);
            JMeterUtils.getJMeterProperties().remove(PluginNames.H2_MAX_REQUESTS);
            JMeterUtils.getJMeterProperties().remove(PluginNames.H2_PING_MS);
        }
    }

    private EngineHttpRequest sampler(String scheme, int port, String path, String protocol) {
        EngineHttpRequest s = new EngineHttpRequest();
        s.setName("h2");
        s.setProtocol(scheme);
        s.setDomain("127.0.0.1");
        s.setPort(port);
        s.setPath(path);
        s.setMethod("GET");
        s.setUseKeepAlive(true);
        s.setContentEncoding("UTF-8");
        if (protocol != null) {
            s.setProperty(PluginNames.PROTOCOL, protocol);
        }
        return s;
    }

    private EngineHttpRequest h2c(String path, boolean goAwayAtFirst) throws InterruptedException {
        if (server == null) {
            server = new Http2TestServer(0, goAwayAtFirst);
        }
        return sampler("http", server.address().getPort(), path, "h2c");
    }

    private static HTTPSampleResult sample(EngineHttpRequest s) {
        return (HTTPSampleResult) s.sample(null);
    }

    @Test
    void aGetGoesAsOneStreamAndTheResultReadsLikeHttp2() throws Exception {
        EngineHttpRequest s = h2c("/", false);
        HTTPSampleResult first = sample(s);
        assertTrue(first.isSuccessful(), first.getResponseCode() + " " + first.getResponseMessage());
        assertEquals("200", first.getResponseCode());
        assertEquals("OK", first.getResponseMessage(), "HTTP/2 has no reason phrase: the standard one, as HTTP/1.1");
        assertEquals("hello", first.getResponseDataAsString());
        assertTrue(first.getResponseHeaders().startsWith("HTTP/2 200\ncontent-type: text/plain\n"),
                first.getResponseHeaders());
        int port = server.address().getPort();
        String sent = first.getRequestHeaders();
        assertTrue(sent.startsWith(":method: GET\n:scheme: http\n:path: /\n:authority: 127.0.0.1:" + port + "\n"),
                "pseudo-headers first: " + sent);
        assertTrue(sent.contains("\nuser-agent: Stampede"), "names lower-cased: " + sent);
        assertFalse(sent.contains("connection:"), "no connection-specific field in HTTP/2: " + sent);
        assertTrue(first.getConnectTime() > 0, "the sample that opened the connection shows Connect");
        assertEquals(first.getHeadersSize() + 5, first.getBytesAsLong(), "header block + DATA bytes");
        assertTrue(first.getSentBytes() > 0 && first.getSentBytes() < sent.length(), "HPACK-compressed header block");
        HTTPSampleResult second = sample(s);
        assertTrue(second.isSuccessful());
        assertEquals(0, second.getConnectTime(), "the next stream on the thread's open connection: Connect 0");
        assertEquals(1, server.connections.get(), "one connection for the thread");
        assertEquals(2, server.streams.get(), "one stream per sample");
    }

    @Test
    void aBodyGoesAsItIsInDataFrames() throws Exception {
        EngineHttpRequest s = h2c("/echo", false);
        s.setMethod("POST");
        s.setPostBodyRaw(true);
        s.addNonEncodedArgument("", "{\"k\": \"ü\"}", "");
        HTTPSampleResult r = sample(s);
        assertTrue(r.isSuccessful(), r.getResponseMessage());
        assertEquals("received 11", r.getResponseDataAsString(), "the UTF-8 bytes as encoded, not re-encoded");
        assertTrue(r.getRequestHeaders().contains("\ncontent-length: 11\n"), r.getRequestHeaders());
    }

    @Test
    void aResetStreamFailsItsSampleOnlyNamedAsTheSamplersNameIt() throws Exception {
        HTTPSampleResult reset = sample(h2c("/reset", false));
        assertFalse(reset.isSuccessful());
        assertEquals("Non HTTP response code: io.stampede.engine.StreamResetException", reset.getResponseCode());
        assertTrue(reset.getResponseMessage().contains("REFUSED_STREAM (0x7)"), reset.getResponseMessage());
        HTTPSampleResult next = sample(h2c("/", false));
        assertTrue(next.isSuccessful(), next.getResponseMessage());
        assertEquals(1, server.connections.get(), "the connection outlives a reset stream");
    }

    @Test
    void aGoAwayMakesTheNextSampleOpenANewConnectionWithoutAnError() throws Exception {
        EngineHttpRequest s = h2c("/", true);
        HTTPSampleResult first = sample(s);
        assertTrue(first.isSuccessful(), first.getResponseMessage());
        HTTPSampleResult second = sample(s);
        assertTrue(second.isSuccessful(), second.getResponseMessage());
        assertTrue(second.getConnectTime() > 0, "after GOAWAY the next stream opens a new connection");
        assertEquals(2, server.connections.get());
    }

    @Test
    void theJMeterPropertyIsThePlanWideDefaultAndTheElementsOwnWins() throws Exception {
        loadProperty(PluginNames.PROTOCOL + "=h2c");
        server = new Http2TestServer(0, false);
        HTTPSampleResult r = sample(sampler("http", server.address().getPort(), "/", null));
        assertTrue(r.isSuccessful(), r.getResponseMessage());
        assertTrue(r.getResponseHeaders().startsWith("HTTP/2 200"), r.getResponseHeaders());
        HTTPSampleResult own = sample(sampler("http", server.address().getPort(), "/", "h2"));
        assertFalse(own.isSuccessful(), "the element's h2 wins over the plan-wide h2c");
        assertTrue(own.getResponseMessage().contains("stampede.protocol h2 is HTTP/2 over TLS"),
                own.getResponseMessage());
    }

    @Test
    void anUnknownProtocolFailsNamingThePropertyAndTheAcceptedValues() throws Exception {
        loadProperty(PluginNames.PROTOCOL + "=h3");
        HTTPSampleResult planWide = sample(sampler("http", 1, "/", null));
        assertFalse(planWide.isSuccessful());
        assertTrue(planWide.getResponseMessage().contains("JMeter property stampede.protocol: 'h3' is not a protocol;"
                + " enter http/1.1, h2"), planWide.getResponseMessage());
        HTTPSampleResult own = sample(sampler("http", 1, "/", "HTTP/2"));
        assertTrue(own.getResponseMessage().contains("stampede.protocol of HTTP Request 'h2': 'HTTP/2' is not a "
                + "protocol here; enter h2 (HTTP/2 over TLS) or h2c"), own.getResponseMessage());
    }

    @Test
    void h2WithoutTlsAndH2cWithTlsFailAtOnceNamingTheFix() throws Exception {
        server = new Http2TestServer(0, false);
        int port = server.address().getPort();
        long start = System.nanoTime();
        HTTPSampleResult h2 = sample(sampler("http", port, "/", "h2"));
        assertFalse(h2.isSuccessful());
        assertEquals("Non HTTP response code: java.lang.IllegalArgumentException", h2.getResponseCode());
        assertTrue(h2.getResponseMessage().contains("stampede.protocol h2 is HTTP/2 over TLS, but http://127.0.0.1:"
                + port + "/ is cleartext; use an https URL for h2, or h2c"), h2.getResponseMessage());
        HTTPSampleResult h2c = sample(sampler("https", port, "/", "h2c"));
        assertTrue(h2c.getResponseMessage().contains("stampede.protocol h2c is HTTP/2 over cleartext, but https://"),
                h2c.getResponseMessage());
        assertTrue(System.nanoTime() - start < 2_000_000_000L, "no wait for a server that cannot answer");
        assertEquals(0, server.connections.get(), "nothing was sent");
    }

    @Test
    void maxRequestsPerConnectionIsHonouredAndAnOptionChangeOpensANewConnection() throws Exception {
        EngineHttpRequest s = h2c("/", false);
        s.setProperty(PluginNames.H2_MAX_REQUESTS, "2");
        long[] connects = new long[3];
        for (int i = 0; i < 3; i++) {
            HTTPSampleResult r = sample(s);
            assertTrue(r.isSuccessful(), r.getResponseMessage());
            connects[i] = r.getConnectTime();
        }
        assertEquals(2, server.connections.get(), "2 requests on the first connection, the third on a new one");
        assertTrue(connects[0] > 0 && connects[1] == 0 && connects[2] > 0, Arrays.toString(connects));

        s.setProperty(PluginNames.H2_WINDOW, "1048576");
        HTTPSampleResult r = sample(s);
        assertTrue(r.isSuccessful(), r.getResponseMessage());
        assertTrue(r.getConnectTime() > 0, "other options: a connection opened with them");
        assertEquals(3, server.connections.get());
    }

    @Test
    void aBadHttp2SettingFailsNamingWhereItWasSetAndTheFix() throws Exception {
        loadProperty(PluginNames.H2_WINDOW + "=10");
        EngineHttpRequest s = h2c("/", false);
        HTTPSampleResult planWide = sample(s);
        assertFalse(planWide.isSuccessful());
        assertTrue(planWide.getResponseMessage().contains("JMeter property stampede.h2.window: 10 is out of range; enter"
                + " one between 65535 and"), planWide.getResponseMessage());
        s.setProperty(PluginNames.H2_MAX_REQUESTS, "-1");
        s.setProperty(PluginNames.H2_WINDOW, "65535");
        HTTPSampleResult own = sample(s);
        assertTrue(own.getResponseMessage().contains("HTTP Request 'h2', stampede.h2.max_requests: -1 is out of range"),
                own.getResponseMessage());
        s.setProperty(PluginNames.H2_MAX_REQUESTS, "");
        s.setProperty(PluginNames.H2_PING_MS, "50");
        HTTPSampleResult ping = sample(s);
        assertTrue(ping.getResponseMessage().contains("HTTP Request 'h2', stampede.h2.ping_ms: 50 ms is below 100 ms;"
                + " enter 0 for no PINGs"), ping.getResponseMessage());
        assertEquals(0, server.connections.get(), "nothing was sent");
    }

    @Test
    void pingsGoOutWhileTheThreadThinksWhenAsked() throws Exception {
        loadProperty(PluginNames.H2_PING_MS + "=100");
        EngineHttpRequest s = h2c("/", false);
        assertTrue(sample(s).isSuccessful());
        Thread.sleep(450); // a timer: the engine's loop keeps the connection's PINGs going
        assertTrue(server.pings.get() >= 2, "PINGs: " + server.pings.get());
        HTTPSampleResult next = sample(s);
        assertTrue(next.isSuccessful(), next.getResponseMessage());
        assertEquals(0, next.getConnectTime(), "the same connection");
        assertEquals(1, server.connections.get());
    }

    private static void loadProperty(String line) throws Exception {
        Path props = Files.createTempFile("jmeter", ".properties");
        Files.writeString(props, line + "\n");
        JMeterUtils.loadJMeterProperties(props.toString());
        Files.delete(props);
    }
}
