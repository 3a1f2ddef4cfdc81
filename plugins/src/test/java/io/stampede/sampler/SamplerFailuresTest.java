/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sampler;

import org.apache.jmeter.samplers.SampleResult;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Each failure kind against a real server misbehaving on loopback, named as JMeter users expect. */
class SamplerFailuresTest extends SamplerTestSupport {

    private static void assertFailure(SampleResult r, String exceptionClass, String message) {
        assertFalse(r.isSuccessful());
        assertEquals("Non HTTP response code: " + exceptionClass, r.getResponseCode());
        assertTrue(r.getResponseMessage().startsWith("Non HTTP response message: " + message),
                r.getResponseMessage());
    }

    @Test
    void serverErrorIsAFailedSampleWithItsRealStatus() throws Exception {
        try (TestServer server = TestServer.answering(
                "HTTP/1.1 500 Internal Server Error\r\nContent-Length: 4\r\n\r\noops")) {
            SampleResult r = raw(server.port(), GET).sample(null);
            assertFalse(r.isSuccessful());
            assertEquals("500", r.getResponseCode());
            assertEquals("Internal Server Error", r.getResponseMessage());
            assertEquals("oops", r.getResponseDataAsString());
        }
    }

    @Test
    void refusedConnection() throws Exception {
        int port;
        try (ServerSocket closed = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = closed.getLocalPort();
        }
        HttpRawSampler s = raw(port, GET);
        assertFailure(s.sample(null), "java.net.ConnectException", "Connection refused");
        assertFailure(s.sample(null), "java.net.ConnectException", "Connection refused");
    }

    @Test
    void resetByPeerThenTheNextSampleOpensANewConnection() throws Exception {
        AtomicBoolean resetDone = new AtomicBoolean();
        try (TestServer server = new TestServer((sock, out, req, n) -> {
            if (resetDone.compareAndSet(false, true)) {
                sock.setSoLinger(true, 0);
                sock.close();
            } else {
                out.write(TestServer.OK.getBytes(StandardCharsets.ISO_8859_1));
            }
        })) {
            HttpRawSampler s = raw(server.port(), GET);
            assertFailure(s.sample(null), "java.net.SocketException", "Connection reset by peer");
            assertTrue(s.sample(null).isSuccessful());
            assertEquals(2, server.connections.get());
        }
    }

    @Test
    void closedInTheMiddleOfTheBody() throws Exception {
        try (TestServer server = new TestServer((sock, out, req, n) -> {
            out.write("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly ten..".getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            sock.close();
        })) {
            assertFailure(raw(server.port(), GET).sample(null), "io.stampede.engine.PrematureCloseException",
                    "Connection closed by the server after 10 of 100 body bytes");
        }
    }

    @Test
    void stallingServerHitsTheResponseTimeout() throws Exception {
        try (TestServer server = new TestServer((sock, out, req, n) -> { })) {
            HttpRawSampler s = raw(server.port(), GET);
            s.setResponseTimeout("300");
            SampleResult r = s.sample(null);
            assertFailure(r, "io.stampede.engine.ResponseTimeoutException", "No complete response");
            assertTrue(r.getTime() >= 300 && r.getTime() < 2000, "elapsed " + r.getTime());
        }
    }

    @Test
    void tricklingResponseHitsTheResponseTimeout() throws Exception {
        // Every read returns a byte, so no read ever waits long: the timeout covers the whole response.
        try (TestServer server = new TestServer((sock, out, req, n) -> {
            out.write("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            for (int i = 0; i < 40 && !sock.isClosed(); i++) {
                out.write('x');
                out.flush();
                sleep(50);
            }
        })) {
            HttpRawSampler s = raw(server.port(), GET);
            s.setResponseTimeout("300");
            SampleResult r = s.sample(null);
            assertFailure(r, "io.stampede.engine.ResponseTimeoutException", "No complete response");
            assertTrue(r.getTime() >= 300 && r.getTime() < 1000, "elapsed " + r.getTime());
        }
    }

    @Test
    void responsesInsideTheTimeoutAreNotCutAndATimeoutOnlyCostsItsConnection() throws Exception {
        try (TestServer server = new TestServer((sock, out, req, n) -> {
            if (req.contains("/stall")) {
                return;
            }
            sleep(150);
            out.write(TestServer.OK.getBytes(StandardCharsets.ISO_8859_1));
        })) {
            HttpRawSampler s = raw(server.port(), GET);
            s.setResponseTimeout("250");
            for (int i = 0; i < 3; i++) {
                SampleResult r = s.sample(null);
                assertTrue(r.isSuccessful(), r.getResponseMessage());
                assertTrue(r.getTime() >= 150, "elapsed " + r.getTime());
            }
            assertEquals(1, server.awaitConnections(1));
            HttpRawSampler stalled = raw(server.port(), "GET /stall HTTP/1.1\nHost: localhost\n");
            stalled.setResponseTimeout("250");
            SampleResult r = stalled.sample(null);
            assertFailure(r, "io.stampede.engine.ResponseTimeoutException", "No complete response");
            assertTrue(r.getTime() >= 250 && r.getTime() < 1000, "elapsed " + r.getTime());
            assertTrue(s.sample(null).isSuccessful());
            assertEquals(2, server.awaitConnections(2));
        }
    }

    @Test
    void interruptingTheSamplingThreadEndsItsSample() throws Exception {
        // JMeter's stop now interrupts each JMeter thread as well as its sampler.
        try (TestServer server = new TestServer((sock, out, req, n) -> { })) {
            HttpRawSampler s = raw(server.port(), GET);
            CompletableFuture<SampleResult> result = new CompletableFuture<>();
            Thread sampling = new Thread(() -> result.complete(s.sample(null)), "sampling");
            sampling.start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (server.requests.isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            sampling.interrupt();
            assertFailure(result.get(2, TimeUnit.SECONDS), "java.io.InterruptedIOException", "Sample interrupted");
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void fullAcceptQueueHitsTheConnectTimeout() throws Exception {
        // A listener that never accepts: once its backlog is full the kernel drops further SYNs.
        try (ServerSocket full = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            List<Socket> fillers = new ArrayList<>();
            try {
                for (int i = 0; i < 4; i++) {
                    Socket f = new Socket();
                    try {
                        f.connect(full.getLocalSocketAddress(), 200);
                    } catch (java.io.IOException e) {
                        f.close();
                        break;
                    }
                    fillers.add(f);
                }
                HttpRawSampler s = raw(full.getLocalPort(), GET);
                s.setConnectTimeout("300");
                SampleResult r = s.sample(null);
                assertFailure(r, "io.stampede.engine.ConnectTimeoutException", "Could not connect");
                assertTrue(r.getTime() >= 300 && r.getTime() < 2000, "elapsed " + r.getTime());
            } finally {
                for (Socket f : fillers) {
                    f.close();
                }
            }
        }
    }

    @Test
    void interruptEndsAnInFlightSampleAtOnce() throws Exception {
        try (TestServer server = new TestServer((sock, out, req, n) -> { })) {
            HttpRawSampler s = raw(server.port(), GET);
            CompletableFuture<SampleResult> running = CompletableFuture.supplyAsync(() -> s.sample(null));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (server.requests.isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            long t0 = System.nanoTime();
            assertTrue(s.interrupt());
            SampleResult r = running.get(2, TimeUnit.SECONDS);
            assertTrue(System.nanoTime() - t0 < TimeUnit.MILLISECONDS.toNanos(500));
            assertFailure(r, "java.io.InterruptedIOException", "Sample interrupted");
        }
    }

    @Test
    void badPropertyNamesTheFieldAndTheFix() {
        HttpRawSampler s = raw(80, GET);
        s.setPort("eighty");
        SampleResult r = s.sample(null);
        assertFailure(r, "java.lang.IllegalArgumentException", "stampede.port: 'eighty' is not a whole number");
    }
}
