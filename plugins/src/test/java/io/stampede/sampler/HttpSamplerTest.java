/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sampler;

import io.stampede.names.PluginNames;
import org.apache.jmeter.samplers.SampleResult;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HttpSamplerTest extends SamplerTestSupport {

    private static HttpSampler http(int port) {
        HttpSampler s = new HttpSampler();
        s.setName("http");
        s.setHost("127.0.0.1");
        s.setPort(Integer.toString(port));
        return s;
    }

    @Test
    void testClassNamesMatchTheClasses() {
        assertEquals(HttpSampler.class.getName(), PluginNames.HTTP_SAMPLER_CLASS);
        assertEquals(HttpRawSampler.class.getName(), PluginNames.HTTP_RAW_SAMPLER_CLASS);
    }

    @Test
    void getWithDefaultsBuildsAMinimalRequestAndKeepsTheConnection() throws Exception {
        try (TestServer server = TestServer.answering(TestServer.OK)) {
            HttpSampler s = http(server.port());
            for (int i = 0; i < 3; i++) {
                SampleResult r = s.sample(null);
                assertTrue(r.isSuccessful());
                assertEquals("http://127.0.0.1:" + server.port() + "/", r.getUrlAsString());
            }
            assertEquals("GET / HTTP/1.1\r\nHost: 127.0.0.1:" + server.port() + "\r\n\r\n", server.requests.get(0));
            assertEquals(1, server.connections.get());
        }
    }

    @Test
    void postCarriesHeadersBodyLengthAndConnectionClose() throws Exception {
        try (TestServer server = TestServer.answering(TestServer.OK)) {
            HttpSampler s = http(server.port());
            s.setMethod("post");
            s.setPath("api/items?x=1");
            s.setHeaders("Accept: */*\nX-Test:  two words \n\n");
            s.setBody("{\"é\":1}");
            s.setKeepAlive(false);
            SampleResult r = s.sample(null);
            assertTrue(r.isSuccessful());
            String expected = "POST /api/items?x=1 HTTP/1.1\r\nHost: 127.0.0.1:" + server.port()
                    + "\r\nAccept: */*\r\nX-Test:  two words\r\nContent-Length: 8\r\nConnection: close\r\n\r\n"
                    + "{\"\u00c3\u00a9\":1}";
            assertEquals(expected, server.requests.get(0));
            assertEquals(expected.length(), r.getSentBytes());
        }
    }

    @Test
    void headResponseIsFramedWithoutBody() throws Exception {
        try (TestServer server = TestServer.answering("HTTP/1.1 200 OK\r\nContent-Length: 18\r\n\r\n")) {
            HttpSampler s = http(server.port());
            s.setMethod("HEAD");
            assertTrue(s.sample(null).isSuccessful());
            assertTrue(s.sample(null).isSuccessful(), "a HEAD response must not swallow the next one");
            assertEquals(1, server.connections.get());
        }
    }

    @Test
    void clientErrorIsAFailedSample() throws Exception {
        try (TestServer server = TestServer.answering("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")) {
            SampleResult r = http(server.port()).sample(null);
            assertFalse(r.isSuccessful());
            assertEquals("404", r.getResponseCode());
        }
    }

    @Test
    void malformedHeaderLineIsRejectedWithTheFieldName() {
        HttpSampler s = http(80);
        s.setHeaders("NoColonHere");
        SampleResult r = s.sample(null);
        assertFalse(r.isSuccessful());
        assertTrue(r.getResponseMessage().contains("stampede.http.headers"), r.getResponseMessage());
    }
}
