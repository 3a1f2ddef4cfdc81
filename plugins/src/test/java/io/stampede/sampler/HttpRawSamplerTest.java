/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sampler;

import io.stampede.engine.Engine;
import org.apache.jmeter.samplers.SampleResult;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HttpRawSamplerTest extends SamplerTestSupport {

    @Test
    void keepAliveSamplesShareOneConnectionAndReportFullResults() throws Exception {
        try (TestServer server = TestServer.answering(TestServer.OK)) {
            HttpRawSampler s = raw(server.port(), GET);
            for (int i = 0; i < 5; i++) {
                SampleResult r = s.sample(null);
                assertTrue(r.isSuccessful(), r.getResponseMessage());
                assertEquals("200", r.getResponseCode());
                assertEquals("OK", r.getResponseMessage());
                assertEquals(TestServer.OK_BODY, r.getResponseDataAsString());
                assertEquals(TestServer.OK.length(), r.getBytesAsLong());
                assertEquals(TestServer.OK.length() - 18, r.getHeadersSize());
                assertEquals(18, r.getBodySizeAsLong());
                assertEquals("GET /x HTTP/1.1\r\nHost: localhost\r\n\r\n".length(), r.getSentBytes());
                assertEquals("http://127.0.0.1:" + server.port() + "/x", r.getUrlAsString());
                assertTrue(r.getResponseHeaders().startsWith("HTTP/1.1 200 OK\r\nContent-Type: text/plain"));
                assertTrue(r.getLatency() <= r.getTime());
                if (i > 0) {
                    assertEquals(0, r.getConnectTime(), "a reused connection has no connect time");
                } else {
                    assertTrue(r.getConnectTime() >= 1, "a new connection shows in Connect even on loopback");
                    assertTrue(r.getTime() >= r.getConnectTime(), "elapsed includes the connect");
                }
            }
            assertEquals(1, server.connections.get());
            assertEquals("GET /x HTTP/1.1\r\nHost: localhost\r\n\r\n", server.requests.get(0));
        }
    }

    @Test
    void connectLatencyAndElapsedAreTimedOnTheWire() throws Exception {
        byte[] ok = TestServer.OK.getBytes(StandardCharsets.ISO_8859_1);
        try (TestServer server = new TestServer((sock, out, req, n) -> {
            pause(150);
            out.write(ok, 0, 20);
            out.flush();
            pause(100);
            out.write(ok, 20, ok.length - 20);
            out.flush();
        })) {
            HttpRawSampler s = raw(server.port(), GET);
            SampleResult first = s.sample(null);
            SampleResult second = s.sample(null);
            for (SampleResult r : new SampleResult[] {first, second}) {
                assertTrue(r.isSuccessful(), r.getResponseMessage());
                assertTrue(r.getLatency() >= 150, "Latency runs to the first byte: " + r.getLatency());
                assertTrue(r.getTime() >= 250, "elapsed runs to the last byte: " + r.getTime());
                assertTrue(r.getTime() - r.getLatency() >= 90, "the body came 100 ms after the first byte: "
                        + r.getLatency() + " / " + r.getTime());
            }
            assertTrue(first.getConnectTime() >= 1, "the first sample connected");
            assertTrue(first.getLatency() >= first.getConnectTime(), "Latency includes the connect");
            assertEquals(0, second.getConnectTime(), "the second reused the connection");
            assertEquals(1, server.connections.get());
        }
    }

    private static void pause(long millis) throws java.io.IOException {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException();
        }
    }

    @Test
    void keepAliveOffSendsConnectionCloseAndReconnects() throws Exception {
        try (TestServer server = TestServer.answering(TestServer.OK)) {
            HttpRawSampler s = raw(server.port(), GET);
            s.setKeepAlive(false);
            for (int i = 0; i < 3; i++) {
                assertTrue(s.sample(null).isSuccessful());
            }
            assertEquals(3, server.connections.get());
            assertEquals("GET /x HTTP/1.1\r\nConnection: close\r\nHost: localhost\r\n\r\n", server.requests.get(2));
        }
    }

    @Test
    void crlfNormalisationCanBeTurnedOff() throws Exception {
        try (TestServer server = TestServer.answering(TestServer.OK)) {
            HttpRawSampler s = raw(server.port(), "GET /lf HTTP/1.1\r\nHost: a\r\n\r\n");
            s.setCrlf(false);
            assertTrue(s.sample(null).isSuccessful());
            assertEquals("GET /lf HTTP/1.1\r\nHost: a\r\n\r\n", server.requests.get(0));
        }
    }

    @Test
    void chunkedAndCloseDelimitedBodiesOverRealSockets() throws Exception {
        String chunked = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n";
        try (TestServer server = TestServer.answering(chunked)) {
            HttpRawSampler s = raw(server.port(), GET);
            assertEquals("abc", s.sample(null).getResponseDataAsString());
            assertEquals("abc", s.sample(null).getResponseDataAsString());
            assertEquals(1, server.connections.get());
        }
        try (TestServer server = new TestServer((sock, out, req, n) -> {
            out.write("HTTP/1.0 200 OK\r\n\r\nuntil close".getBytes(StandardCharsets.ISO_8859_1));
            sock.close();
        })) {
            HttpRawSampler s = raw(server.port(), GET);
            SampleResult r = s.sample(null);
            assertTrue(r.isSuccessful(), r.getResponseMessage());
            assertEquals("until close", r.getResponseDataAsString());
            assertTrue(s.sample(null).isSuccessful());
            assertEquals(2, server.connections.get());
        }
    }

    @Test
    void keptBytesAreLimitedButAllCounted() throws Exception {
        try (TestServer server = TestServer.answering(TestServer.OK)) {
            HttpRawSampler s = raw(server.port(), GET);
            s.setResponseBytesKept("5");
            SampleResult r = s.sample(null);
            assertEquals("01234", r.getResponseDataAsString());
            assertEquals(TestServer.OK.length(), r.getBytesAsLong());
        }
    }

    @Test
    void idleConnectionClosedByTheServerIsReplacedWithoutAnError() throws Exception {
        try (TestServer server = new TestServer((sock, out, req, n) -> {
            out.write(TestServer.OK.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            sock.close();
        })) {
            HttpRawSampler s = raw(server.port(), GET);
            assertTrue(s.sample(null).isSuccessful());
            Thread.sleep(100);
            SampleResult second = s.sample(null);
            assertTrue(second.isSuccessful(), second.getResponseCode());
            assertEquals(2, server.connections.get());
        }
    }

    @Test
    void engineStopsAtTestEndWithoutThreadsLeftAndRestartsForTheNextTest() throws Exception {
        try (TestServer server = TestServer.answering(TestServer.OK)) {
            HttpRawSampler s = raw(server.port(), GET);
            assertTrue(s.sample(null).isSuccessful());
            s.testEnded();
            assertFalse(Thread.getAllStackTraces().keySet().stream()
                    .anyMatch(t -> t.getName().startsWith("stampede-io") && t.isAlive()), "event loop threads left");
            assertTrue(s.sample(null).isSuccessful(), "a second test in the same JVM starts a new engine");
            assertEquals(2, server.connections.get());
            assertTrue(Engine.get().transport().equals("epoll"), "native epoll expected on Linux x86_64");
        }
    }

    @Test
    void usedSamplerStillSerialises() throws Exception {
        try (TestServer server = TestServer.answering(TestServer.OK)) {
            HttpRawSampler s = raw(server.port(), GET);
            assertTrue(s.sample(null).isSuccessful());
            try (ObjectOutputStream out = new ObjectOutputStream(new ByteArrayOutputStream())) {
                out.writeObject(s);
            }
        }
    }

    @Test
    void aLargeBodyLeavesNoCopyWithTheSamplerAfterItsSample() throws Exception {
        int size = 1 << 20;
        String big = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: " + size + "\r\n\r\n"
                + "x".repeat(size);
        try (TestServer server = TestServer.answering(big)) {
            HttpRawSampler s = raw(server.port(), GET);
            s.setResponseBytesKept(Integer.toString(4 * size));
            ResultFiller filler = new ResultFiller();
            SingleConnectionMode mode = new SingleConnectionMode(s, filler);
            for (int i = 0; i < 2; i++) {
                SampleResult r = mode.sample(new SampleResult());
                assertTrue(r.isSuccessful(), r.getResponseCode() + " " + r.getResponseMessage());
                assertEquals(size, r.getResponseData().length, "the sample shows the whole body it kept");
                // A user that fetched a large file once and moves on to other samplers must not keep it (nor a copy
                // made to compare it with the next response) for the rest of the run.
                assertTrue(filler.heldBodyBytes() <= 64 * 1024, "held after the sample: " + filler.heldBodyBytes());
            }
            mode.close();
        }
    }
}
