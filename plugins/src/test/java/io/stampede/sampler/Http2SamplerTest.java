/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sampler;

import io.stampede.engine.http2.Http2TestServer;
import io.stampede.names.PluginNames;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.apache.jmeter.util.JMeterUtils;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Both samplers with stampede.protocol h2c against an in-test HTTP/2 server, and the protocol settings' errors. */
class Http2SamplerTest extends SamplerTestSupport {

    private HttpRawSampler rawH2c(Http2TestServer server, String text) {
        HttpRawSampler s = raw(server.address().getPort(), text);
        s.setProperty(PluginNames.PROTOCOL, "h2c");
        return s;
    }

    @Test
    void theRawTextGoesAsAnHttp2StreamAndTheResultReadsLikeHttp2() throws Exception {
        try (Http2TestServer server = new Http2TestServer(0, false)) {
            HttpRawSampler s = rawH2c(server, "GET / HTTP/1.1\nHost: localhost\nConnection: keep-alive\n"
                    + "Accept: */*\n");
            SampleResult first = s.sample(null);
            assertTrue(first.isSuccessful(), first.getResponseCode() + " " + first.getResponseMessage());
            assertEquals("200", first.getResponseCode());
            assertEquals("hello", first.getResponseDataAsString());
            assertTrue(first.getResponseHeaders().startsWith("HTTP/2 200\r\n"), first.getResponseHeaders());
            assertTrue(first.getConnectTime() > 0, "the stream that opened the connection shows Connect");
            assertEquals(first.getHeadersSize() + 5, first.getBytesAsLong(), "header block + DATA bytes");
            assertTrue(first.getSentBytes() > 0);
            SampleResult second = s.sample(null);
            assertTrue(second.isSuccessful());
            assertEquals(0, second.getConnectTime(), "later streams on the open connection: Connect 0");
            assertEquals("http://127.0.0.1:" + server.address().getPort() + "/", second.getUrlAsString());
            assertEquals(1, server.connections.get());
        }
    }

    @Test
    void theProtocolSpokenIsTheSampleVariableStampedeProtocol() throws Exception {
        Path props = Files.createTempFile("jmeter", ".properties");
        Files.writeString(props, "sample_variables=" + PluginNames.PROTOCOL_VARIABLE + "\n");
        JMeterUtils.loadJMeterProperties(props.toString());
        Files.delete(props);
        JMeterContextService.getContext().setVariables(new JMeterVariables());
        try (Http2TestServer server = new Http2TestServer(0, false)) {
            SampleResult r = rawH2c(server, GET).sample(null);
            assertTrue(r.isSuccessful(), r.getResponseMessage());
            assertEquals("h2c", JMeterContextService.getContext().getVariables().get(PluginNames.PROTOCOL_VARIABLE));
            // a connect that fails sends nothing: no protocol was spoken
            HttpRawSampler closed = raw(1, GET);
            closed.setProperty(PluginNames.PROTOCOL, "h2c");
            assertFalse(closed.sample(null).isSuccessful());
            assertEquals("", JMeterContextService.getContext().getVariables().get(PluginNames.PROTOCOL_VARIABLE));
        } finally {
            JMeterUtils.getJMeterProperties().remove("sample_variables");
        }
    }

    @Test
    void aSampleRefusedBeforeItStartsWritesItsOwnVariablesNotThePreviousSamples() throws Exception {
        Path props = Files.createTempFile("jmeter", ".properties");
        Files.writeString(props, "sample_variables=" + PluginNames.PROTOCOL_VARIABLE + "," + PluginNames.ELAPSED_US_VARIABLE
                + "\n");
        JMeterUtils.loadJMeterProperties(props.toString());
        Files.delete(props);
        JMeterVariables vars = new JMeterVariables();
        JMeterContextService.getContext().setVariables(vars);
        try (Http2TestServer server = new Http2TestServer(0, false)) {
            assertTrue(rawH2c(server, GET).sample(null).isSuccessful());
            assertEquals("h2c", vars.get(PluginNames.PROTOCOL_VARIABLE));
            vars.put(PluginNames.ELAPSED_US_VARIABLE, "987654"); // a previous sample's figure that must not stay
            HttpRawSampler refused = rawH2c(server, GET);
            refused.setProperty(PluginNames.H2_STREAMS, "0");
            SampleResult r = refused.sample(null);
            assertFalse(r.isSuccessful());
            assertEquals("", vars.get(PluginNames.PROTOCOL_VARIABLE));
            assertTrue(Long.parseLong(vars.get(PluginNames.ELAPSED_US_VARIABLE)) < 987654, vars.get(PluginNames.ELAPSED_US_VARIABLE));
        } finally {
            JMeterUtils.getJMeterProperties().remove("sample_variables");
        }
    }

    @Test
    void theHttpSamplersFieldsGoAsAStreamWithABody() throws Exception {
        try (Http2TestServer server = new Http2TestServer(0, false)) {
            HttpSampler s = new HttpSampler();
            s.setName("http");
            s.setHost("127.0.0.1");
            s.setPort(Integer.toString(server.address().getPort()));
            s.setProperty(PluginNames.HTTP_METHOD, "POST");
            s.setProperty(PluginNames.HTTP_PATH, "/echo");
            s.setProperty(PluginNames.HTTP_BODY, "abcdef");
            s.setProperty(PluginNames.PROTOCOL, "h2c");
            SampleResult r = s.sample(null);
            assertTrue(r.isSuccessful(), r.getResponseMessage());
            assertEquals("received 6", r.getResponseDataAsString());
        }
    }

    @Test
    void connectionsTimesStreamsRequestsAreInFlightPerThread() throws Exception {
        try (Http2TestServer server = new Http2TestServer(0, false)) {
            HttpRawSampler s = rawH2c(server, "GET /slow HTTP/1.1\nHost: localhost\n");
            s.setProperty(PluginNames.CONNECTIONS_PER_THREAD, "2");
            s.setProperty(PluginNames.H2_STREAMS, "5");
            long start = System.nanoTime();
            for (int i = 0; i < 50; i++) {
                SampleResult r = s.sample(null);
                assertTrue(r.isSuccessful(), r.getResponseMessage());
            }
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertEquals(2, server.connections.get());
            assertEquals(10, server.maxActive.get() <= 10 ? 10 : server.maxActive.get(), "at most 2 x 5 at once");
            // 50 responses of 30 ms each, 10 at a time: about 150 ms, not the 1.5 s of one at a time.
            assertTrue(millis < 1200, "took " + millis + " ms");
        }
    }

    private void assertRefused(StampedeSampler s, String message) {
        SampleResult r = s.sample(null);
        assertFalse(r.isSuccessful());
        assertEquals("Non HTTP response code: java.lang.IllegalArgumentException", r.getResponseCode());
        assertTrue(r.getResponseMessage().contains(message), r.getResponseMessage());
    }

    @Test
    void badProtocolSettingsAreNamedWithTheirFix() {
        HttpRawSampler unknown = raw(1, GET);
        unknown.setProperty(PluginNames.PROTOCOL, "spdy");
        assertRefused(unknown, "stampede.protocol: 'spdy' is not a protocol; enter http/1.1, h2");
        HttpRawSampler http2 = raw(1, GET);
        http2.setProperty(PluginNames.PROTOCOL, "HTTP/2");
        assertRefused(http2, "enter h2 (HTTP/2 over TLS) or h2c");
        HttpRawSampler zero = raw(1, GET);
        zero.setProperty(PluginNames.PROTOCOL, "h2c");
        zero.setProperty(PluginNames.H2_STREAMS, "0");
        assertRefused(zero, "stampede.h2.streams: 0 is out of range");
        HttpRawSampler noTls = raw(1, GET);
        noTls.setProperty(PluginNames.PROTOCOL, "h2");
        assertRefused(noTls, "h2 is HTTP/2 over TLS; tick TLS (stampede.tls)");
        HttpRawSampler pipelined = raw(1, GET);
        pipelined.setProperty(PluginNames.PROTOCOL, "h2c");
        pipelined.setProperty(PluginNames.PIPELINE_DEPTH, "8");
        assertRefused(pipelined, "stampede.pipeline_depth is an HTTP/1.1 setting");
    }
}
