/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.http2;

import io.stampede.engine.CompletionQueue;
import io.stampede.engine.Engine;
import io.stampede.engine.GoAwayException;
import io.stampede.engine.Http2ProtocolException;
import io.stampede.engine.PingTimeoutException;
import io.stampede.engine.PreparedRequest;
import io.stampede.engine.ReceivedResponse;
import io.stampede.engine.ResponseTimeoutException;
import io.stampede.engine.tls.SelfSignedTls;
import io.stampede.engine.StreamResetException;
import io.stampede.engine.tls.Tls;
import io.netty.channel.ManualIoEventLoop;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The HTTP/2 session against a real (in-test, Netty) h2c server: streams, limits, resets, GOAWAY, timeouts. */
class Http2ConnectionTest {

    @AfterAll
    static void stopEngine() {
        Engine.shutdown();
    }

    private static Http2Request request(String method, String path, String body, InetSocketAddress at) {
        String text = method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + at.getPort()
                + "\r\nX-Test: Yes\r\nConnection: keep-alive\r\n\r\n" + body;
        return Http2Request.of(PreparedRequest.of(text, method, path, "127.0.0.1", at.getPort(), false),
                "test", false, "127.0.0.1:" + at.getPort());
    }

    /** @param ownLoop the test's thread does the I/O on a loop of its own, else an engine loop does */
    private static Http2Group group(Http2TestServer server, int connections, int streams, boolean ownLoop) {
        // A generous connect timeout: the first connection of the JVM loads the HTTP/2 codec on a loaded machine.
        return new Http2Group(Engine.get(), server.address(), null, null, Http2Options.DEFAULTS, connections, streams,
                20_000, ownLoop);
    }

    private static String text(ReceivedResponse r) {
        return new String(r.keptBodyBuffer(), 0, r.keptBodyLength(), StandardCharsets.US_ASCII);
    }

    @ParameterizedTest(name = "own loop: {0}")
    @ValueSource(booleans = {false, true})
    void aStreamCarriesTheResponseWithItsBytesAndOnlyTheFirstHasConnectTime(boolean ownLoop) throws Exception {
        try (Http2TestServer server = new Http2TestServer(0, false)) {
            Http2Group g = group(server, 1, 1, ownLoop);
            Http2Request req = request("GET", "/", "", server.address());
            Http2Exchange first = g.next(req, 1000, 2000);
            assertFalse(first.failed(), () -> String.valueOf(first.failure()));
            ReceivedResponse r = first.response();
            assertEquals(200, r.status());
            assertEquals("hello", text(r));
            String head = new String(r.headerBlock(), 0, r.headerBlockLength(), StandardCharsets.ISO_8859_1);
            assertTrue(head.startsWith("HTTP/2 200\r\n"), head);
            assertTrue(head.contains("content-type: text/plain\r\n"), head);
            assertEquals("text/plain", r.contentType());
            assertEquals("OK", r.reason());
            assertEquals(5, r.bodyBytes());
            assertTrue(r.headerBytes() > 0 && r.headerBytes() < head.length(), "compressed header block bytes");
            assertTrue(first.sentBytes() > 0, "header block sent");
            assertTrue(first.connectNanos() > 0, "the stream that opened the connection has Connect");
            assertTrue(first.firstByteNanos() >= first.startNanos());
            assertEquals("HTTP/2", first.protocol());
            long firstSent = first.sentBytes();
            Http2Exchange second = g.next(req, 1000, 2000);
            assertFalse(second.failed());
            assertEquals(0, second.connectNanos(), "a later stream on the open connection has no Connect");
            assertTrue(second.sentBytes() < firstSent, "HPACK indexes repeated headers: " + second.sentBytes());
            assertEquals(1, server.connections.get());
            g.close();
        }
    }

    @ParameterizedTest(name = "own loop: {0}")
    @ValueSource(booleans = {false, true})
    void aBodyGoesInDataFramesAndConnectionHeadersAreDropped(boolean ownLoop) throws Exception {
        try (Http2TestServer server = new Http2TestServer(0, false)) {
            Http2Group g = group(server, 1, 1, ownLoop);
            Http2Exchange e = g.next(request("POST", "/echo", "0123456789", server.address()), 1000, 2000);
            assertFalse(e.failed(), () -> String.valueOf(e.failure()));
            assertEquals("received 10", text(e.response()));
            g.close();
        }
    }

    @ParameterizedTest(name = "own loop: {0}")
    @ValueSource(booleans = {false, true})
    void streamsShareOneConnectionUpToTheServersLimit(boolean ownLoop) throws Exception {
        try (Http2TestServer server = new Http2TestServer(3, false)) {
            Http2Group g = group(server, 1, 10, ownLoop);
            Http2Request req = request("GET", "/slow", "", server.address());
            int ok = 0;
            for (int i = 0; i < 40; i++) {
                Http2Exchange e = g.next(req, 1000, 5000);
                assertFalse(e.failed(), () -> String.valueOf(e.failure()));
                ok++;
            }
            assertEquals(40, ok);
            assertEquals(1, server.connections.get(), "one TCP connection");
            assertEquals(3, server.maxActive.get(), "streams at once: the server's SETTINGS_MAX_CONCURRENT_STREAMS");
            g.close();
        }
    }

    @ParameterizedTest(name = "own loop: {0}")
    @ValueSource(booleans = {false, true})
    void manyStreamsCompleteInBatchesWithoutALostWakeUp(boolean ownLoop) throws Exception {
        try (Http2TestServer server = new Http2TestServer(0, false)) {
            // Completions of one read are handed over with one wake-up and the re-armed streams go out in one
            // batch: a lost wake-up stalls the thread until its 1 s park ends, which 20,000 samples would show.
            Http2Group g = group(server, 2, 20, ownLoop);
            Http2Request req = request("GET", "/", "", server.address());
            long start = System.nanoTime();
            long slowest = 0;
            for (int i = 0; i < 20_000; i++) {
                long t0 = System.nanoTime();
                Http2Exchange e = g.next(req, 1000, 30_000);
                slowest = Math.max(slowest, System.nanoTime() - t0);
                assertFalse(e.failed(), () -> String.valueOf(e.failure()));
                assertEquals(200, e.response().status());
            }
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertEquals(2, server.connections.get());
            assertTrue(millis < 30_000, "20,000 streams took " + millis + " ms");
            System.out.printf("Http2ConnectionTest: 20,000 streams over 2 x 20 in %d ms, slowest wait %d ms%n",
                    millis, slowest / 1_000_000);
            g.close();
        }
    }

    @ParameterizedTest(name = "own loop: {0}")
    @ValueSource(booleans = {false, true})
    void aResetStreamFailsWithItsErrorCode(boolean ownLoop) throws Exception {
        try (Http2TestServer server = new Http2TestServer(0, false)) {
            Http2Group g = group(server, 1, 1, ownLoop);
            Http2Exchange e = g.next(request("GET", "/reset", "", server.address()), 1000, 2000);
            assertTrue(e.failed());
            assertInstanceOf(StreamResetException.class, e.failure());
            assertTrue(e.failure().getMessage().contains("REFUSED_STREAM (0x7)"), e.failure().getMessage());
            Http2Exchange next = g.next(request("GET", "/", "", server.address()), 1000, 2000);
            assertFalse(next.failed(), "the connection goes on after a stream reset");
            assertEquals(1, server.connections.get());
            g.close();
        }
    }

    @ParameterizedTest(name = "own loop: {0}")
    @ValueSource(booleans = {false, true})
    void afterGoAwayLaterStreamsAreRetriedOnceOnANewConnectionThenFail(boolean ownLoop) throws Exception {
        try (Http2TestServer server = new Http2TestServer(0, true)) {
            Http2Group g = group(server, 1, 3, ownLoop);
            Http2Request req = request("GET", "/", "", server.address());
            // An exchange is reused once taken: read each outcome as it comes.
            int ok = 0;
            List<IOException> failures = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                Http2Exchange e = g.next(req, 1000, 2000);
                if (e.failed()) {
                    failures.add(e.failure());
                } else {
                    ok++;
                }
            }
            // Connection 1 answers stream 1 and sends GOAWAY(last 1): streams 3 and 5 go to connection 2, which
            // answers one and sends GOAWAY again; the other was retried already and fails.
            assertEquals(2, ok, failures::toString);
            assertEquals(1, failures.size());
            assertInstanceOf(GoAwayException.class, failures.get(0));
            // A third connection may be opening already: the slot re-armed after the first result is the one
            // connection 2's GOAWAY sent on.
            assertTrue(server.connections.get() >= 2, "a new connection after GOAWAY");
            g.close();
        }
    }

    @ParameterizedTest(name = "own loop: {0}")
    @ValueSource(booleans = {false, true})
    void aStreamOverItsResponseTimeoutIsResetAndTheOthersGoOn(boolean ownLoop) throws Exception {
        try (Http2TestServer server = new Http2TestServer(0, false)) {
            Http2Group g = group(server, 1, 1, ownLoop);
            Http2Exchange e = g.next(request("GET", "/never", "", server.address()), 1000, 200);
            assertTrue(e.failed());
            assertInstanceOf(ResponseTimeoutException.class, e.failure());
            Http2Exchange next = g.next(request("GET", "/", "", server.address()), 1000, 2000);
            assertFalse(next.failed(), () -> String.valueOf(next.failure()));
            assertEquals(1, server.connections.get(), "the timeout reset a stream, not the connection");
            g.close();
        }
    }

    /**
     * The owner waits without looking at its slots until the earliest deadline it knows of; a request armed with a
     * shorter timeout than the ones in flight must bring that wait forward.
     */
    @ParameterizedTest(name = "own loop: {0}")
    @ValueSource(booleans = {false, true})
    void aShorterResponseTimeoutThanTheStreamsInFlightStillFiresOnTime(boolean ownLoop) throws Exception {
        try (Http2TestServer server = new Http2TestServer(0, false)) {
            Http2Group g = group(server, 1, 2, ownLoop);
            // Both streams are armed with 30 s; the one answered first is re-armed with 200 ms on a request that
            // never gets an answer, and the other is then taken too.
            Http2Exchange first = g.next(request("GET", "/", "", server.address()), 1000, 30_000);
            assertFalse(first.failed(), () -> String.valueOf(first.failure()));
            Http2Exchange second = g.next(request("GET", "/never", "", server.address()), 1000, 200);
            assertFalse(second.failed(), () -> String.valueOf(second.failure()));
            long start = System.nanoTime();
            Http2Exchange timedOut = g.next(request("GET", "/never", "", server.address()), 1000, 200);
            long waitedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertInstanceOf(ResponseTimeoutException.class, timedOut.failure());
            assertTrue(waitedMillis < 10_000, "the 200 ms timeout fired after " + waitedMillis
                    + " ms: the wait ran to the 30 s deadline of the streams armed before it");
            g.close();
        }
    }

    /**
     * On its own loop, a thread re-arms each answered stream but writes the re-armed ones only once half of its streams
     * wait (or the write interval passed), so the server gets the requests in batches, not one to three per write. A
     * server slower per request than the thread makes the responses arrive one or two at a time; the write interval is
     * long here, so that the batch size does not depend on this machine's speed.
     */
    @Test
    void onItsOwnLoopAThreadWritesItsReArmedStreamsInBatches() throws Exception {
        try (Http2TestServer server = new Http2TestServer(0, false)) {
            int streams = 40;
            Http2Group g = new Http2Group(Engine.get(), server.address(), null, null, Http2Options.DEFAULTS, 1,
                    streams, 20_000, true, TimeUnit.SECONDS.toNanos(1));
            Http2Request req = request("GET", "/work", "", server.address());
            for (int i = 0; i < 200; i++) { // the connection is open and every stream answered once
                assertFalse(g.next(req, 1000, 10_000).failed());
            }
            int requestsBefore = server.streams.get();
            long batchesBefore = g.batchesWritten();
            for (int i = 0; i < 2000; i++) {
                Http2Exchange e = g.next(req, 1000, 10_000);
                assertFalse(e.failed(), () -> String.valueOf(e.failure()));
                // A JMeter thread's own work on a sample (its listeners, the JTL line), shorter than the server's.
                long until = System.nanoTime() + TimeUnit.MICROSECONDS.toNanos(2);
                while (System.nanoTime() - until < 0) {
                    Thread.onSpinWait();
                }
            }
            int requests = server.streams.get() - requestsBefore;
            long batches = g.batchesWritten() - batchesBefore;
            g.close();
            assertTrue(requests >= 2000 - streams, "requests the server saw: " + requests);
            assertTrue(requests >= 15 * batches, requests + " requests went out in " + batches
                    + " batches: fewer than 15 per batch");
        }
    }

    /**
     * The server resets a stream just as its owner times it out: the reset is read after the owner armed the same
     * slot for its next request, and must not fail that one. A loop the test drives itself makes the order exact:
     * nothing is read until the test runs it.
     */
    @Test
    void aLateResetOfAStreamItsOwnerTimedOutDoesNotFailTheNextRequest() throws Exception {
        try (Http2TestServer server = new Http2TestServer(0, false)) {
            ManualIoEventLoop loop = Engine.get().newOwnedLoop();
            CompletionQueue queue = new CompletionQueue(null);
            Http2Connection c = new Http2Connection(Engine.get(), loop, queue, server.address(), null, 20_000, 1,
                    null, Http2Options.DEFAULTS);
            Http2Exchange e = c.exchanges()[0];
            try {
                e.arm(request("GET", "/", "", server.address()), 1000, 10_000);
                assertFalse(runUntilDone(loop, queue).failed(), () -> String.valueOf(e.failure()));
                e.arm(request("GET", "/reset", "", server.address()), 1000, 50);
                runUntilSent(loop, e); // the write; the reset is not read in the same run
                Thread.sleep(200); // the server's RST_STREAM waits in the socket, the 50 ms timeout has passed
                assertTrue(e.expireIfOverdue(System.nanoTime()));
                assertSame(e, queue.poll());
                e.take();
                e.arm(request("GET", "/", "", server.address()), 1000, 10_000);
                Http2Exchange next = runUntilDone(loop, queue);
                assertFalse(next.failed(), () -> "the next request failed with the old stream's reset: "
                        + next.failure());
                assertEquals(200, next.response().status());
                assertEquals("hello", text(next.response()));
            } finally {
                c.close();
                Engine.closeOwnedLoop(loop, "test connection");
            }
        }
    }

    /**
     * The same after an ALPN fallback to HTTP/1.1: the server closes the connection of a request its owner timed out,
     * and the close is read before the owner's cancel runs and handled after the owner armed its next request, which
     * must get a connection of its own instead of failing with the old one's close.
     */
    @Test
    void aCloseReadBeforeTheCancelOfAFallbackRequestDoesNotFailTheNextRequest() throws Exception {
        Path keys = Files.createTempDirectory("stampede-tls");
        AtomicInteger accepted = new AtomicInteger();
        try (ServerSocket server = SelfSignedTls.serverContext(keys).getServerSocketFactory()
                .createServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread acceptor = new Thread(() -> serveHttp11(server, accepted), "tls-server");
            acceptor.setDaemon(true);
            acceptor.start();
            InetSocketAddress at = new InetSocketAddress("127.0.0.1", server.getLocalPort());
            ManualIoEventLoop loop = Engine.get().newOwnedLoop();
            CompletionQueue queue = new CompletionQueue(null);
            Http2Connection c = new Http2Connection(Engine.get(), loop, queue, at, null, 20_000, 1,
                    new Tls("127.0.0.1", at.getPort(), true), Http2Options.DEFAULTS);
            Http2Exchange e = c.exchanges()[0];
            try {
                e.arm(request("GET", "/", "", at), 1000, 10_000);
                Http2Exchange first = runUntilDone(loop, queue);
                assertFalse(first.failed(), () -> String.valueOf(first.failure()));
                assertEquals("HTTP/1.1", first.protocol(), "the server offers no h2 in ALPN");
                e.arm(request("GET", "/close", "", at), 1000, 50);
                runUntilSent(loop, e);
                Thread.sleep(200); // the server has closed the connection; the 50 ms timeout has passed
                loop.runNow(-1); // I/O only: the close is read, the channel's inactive event is queued
                assertTrue(e.expireIfOverdue(System.nanoTime()), "the owner's timeout, its cancel queued behind");
                assertSame(e, queue.poll());
                e.take();
                e.arm(request("GET", "/", "", at), 1000, 10_000);
                Http2Exchange next = runUntilDone(loop, queue);
                assertFalse(next.failed(), () -> "the next request failed with the old connection's close: "
                        + next.failure());
                assertEquals(200, next.response().status());
                assertEquals("hello", text(next.response()));
                assertEquals(2, accepted.get(), "the next request went out on a new connection");
            } finally {
                c.close();
                Engine.closeOwnedLoop(loop, "test connection");
            }
        } finally {
            Files.deleteIfExists(keys.resolve("server.p12"));
            Files.deleteIfExists(keys);
        }
    }

    /** An HTTP/1.1 server over TLS: "/close" closes the connection unanswered, any other path gets 200 "hello". */
    private static void serveHttp11(ServerSocket server, AtomicInteger accepted) {
        try {
            while (true) {
                Socket s = server.accept();
                accepted.incrementAndGet();
                Thread t = new Thread(() -> {
                    try (s) {
                        InputStream in = s.getInputStream();
                        OutputStream out = s.getOutputStream();
                        for (String head = readHead(in); head != null; head = readHead(in)) {
                            if (head.startsWith("GET /close ")) {
                                return;
                            }
                            out.write("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello"
                                    .getBytes(StandardCharsets.US_ASCII));
                            out.flush();
                        }
                    } catch (IOException ignored) {
                        // the client went away
                    }
                }, "tls-conn");
                t.setDaemon(true);
                t.start();
            }
        } catch (IOException closed) {
            // test over
        }
    }

    private static String readHead(InputStream in) throws IOException {
        StringBuilder b = new StringBuilder();
        for (int c = in.read(); c >= 0; c = in.read()) {
            b.append((char) c);
            if (b.length() >= 4 && b.lastIndexOf("\r\n\r\n") == b.length() - 4) {
                return b.toString();
            }
        }
        return null;
    }

    /** Runs the test's own loop until {@code e} is written (at most 5 s); what comes back is read by a later run. */
    private static void runUntilSent(ManualIoEventLoop loop, Http2Exchange e) {
        for (int i = 0; i < 1000 && e.state() != Http2Exchange.SENT; i++) {
            loop.run(TimeUnit.MILLISECONDS.toNanos(5));
        }
        assertEquals(Http2Exchange.SENT, e.state());
    }

    /** Runs the test's own loop until an outcome arrives (at most 10 s); it is taken. */
    private static Http2Exchange runUntilDone(ManualIoEventLoop loop, CompletionQueue queue) {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        CompletionQueue.Node n = queue.poll();
        while (n == null && System.nanoTime() - end < 0) {
            loop.run(TimeUnit.MILLISECONDS.toNanos(10));
            n = queue.poll();
        }
        assertNotNull(n, "no outcome within 10 s");
        Http2Exchange done = (Http2Exchange) n;
        done.take();
        return done;
    }

    @ParameterizedTest(name = "own loop: {0}")
    @ValueSource(booleans = {false, true})
    void h2cToAnHttp11OnlyServerFailsAtOnceSayingSo(boolean ownLoop) throws Exception {
        try (ServerSocket ss = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
            Thread t = new Thread(() -> {
                try (Socket s = ss.accept()) {
                    InputStream in = s.getInputStream();
                    in.read(new byte[4096]);
                    OutputStream out = s.getOutputStream();
                    out.write("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                            .getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                } catch (IOException ignored) {
                    // the test reads the client's side
                }
            });
            t.start();
            InetSocketAddress at = new InetSocketAddress("127.0.0.1", ss.getLocalPort());
            Http2Group g = new Http2Group(Engine.get(), at, null, null, Http2Options.DEFAULTS, 1, 1, 20_000, ownLoop);
            long start = System.nanoTime();
            Http2Exchange e = g.next(request("GET", "/", "", at), 1000, 30_000);
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertTrue(e.failed());
            assertInstanceOf(Http2ProtocolException.class, e.failure());
            assertNotNull(e.failure().getMessage());
            assertTrue(e.failure().getMessage().contains("did not answer in HTTP/2"), e.failure().getMessage());
            assertTrue(millis < 2000, "failed in " + millis + " ms, not at a timeout");
            g.close();
            t.join(2000);
        }
    }

    private static Http2Group pinging(Http2TestServer server, int pingMillis, boolean ownLoop) {
        Http2Options pings = new Http2Options(Http2Options.DEFAULT_STREAM_WINDOW,
                Http2Options.DEFAULT_CONNECTION_WINDOW, 0, pingMillis);
        return new Http2Group(Engine.get(), server.address(), null, null, pings, 1, 1, 20_000, ownLoop);
    }

    @ParameterizedTest(name = "PING every {0} ms")
    @ValueSource(ints = {0, 100})
    void anIdleConnectionIsPingedOnlyWhenAsked(int pingMillis) throws Exception {
        try (Http2TestServer server = new Http2TestServer(0, false)) {
            Http2Group g = pinging(server, pingMillis, false);
            Http2Exchange first = g.next(request("GET", "/", "", server.address()), 1000, 2000);
            assertFalse(first.failed(), () -> String.valueOf(first.failure()));
            Thread.sleep(650); // idle: the engine's loop runs the PING timer
            if (pingMillis == 0) {
                assertEquals(0, server.pings.get(), "no PINGs unless stampede.h2.ping_ms asks for them");
            } else {
                // One per 100 ms of silence: the ACK is a frame, so the next interval starts from it.
                assertTrue(server.pings.get() >= 2 && server.pings.get() <= 8, "PINGs: " + server.pings.get());
            }
            Http2Exchange second = g.next(request("GET", "/", "", server.address()), 1000, 2000);
            assertFalse(second.failed(), () -> String.valueOf(second.failure()));
            assertEquals(0, second.connectNanos(), "the same connection");
            assertEquals(1, server.connections.get());
            g.close();
        }
    }

    @ParameterizedTest(name = "own loop: {0}")
    @ValueSource(booleans = {false, true})
    void aPeerThatStopsAnsweringPingsFailsItsStreamsLongBeforeTheirTimeout(boolean ownLoop) throws Exception {
        try (Http2TestServer server = new Http2TestServer(0, false)) {
            Http2Group g = pinging(server, 100, ownLoop);
            Http2Exchange warm = g.next(request("GET", "/", "", server.address()), 1000, 2000);
            assertFalse(warm.failed(), () -> String.valueOf(warm.failure()));
            server.ignorePings = true;
            long start = System.nanoTime();
            Http2Exchange e = g.next(request("GET", "/never", "", server.address()), 1000, 10_000);
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertTrue(e.failed());
            assertInstanceOf(PingTimeoutException.class, e.failure());
            assertTrue(e.failure().getMessage().contains("not even the answer to a PING sent 100 ms ago"
                    + " (stampede.h2.ping_ms 100)"), e.failure().getMessage());
            // Two silent intervals (200 ms) and the timer's own slack, not the 10 s response timeout.
            assertTrue(millis >= 190 && millis < 3000, "failed after " + millis + " ms");
            server.ignorePings = false;
            Http2Exchange next = g.next(request("GET", "/", "", server.address()), 1000, 2000);
            assertFalse(next.failed(), () -> String.valueOf(next.failure()));
            assertEquals(2, server.connections.get(), "the dead connection was replaced");
            g.close();
        }
    }

    @ParameterizedTest(name = "own loop: {0}")
    @ValueSource(booleans = {false, true})
    void aSlowResponseOnAConnectionThatAnswersPingsIsNotCutShort(boolean ownLoop) throws Exception {
        try (Http2TestServer server = new Http2TestServer(0, false)) {
            Http2Group g = pinging(server, 100, ownLoop);
            Http2Exchange e = g.next(request("GET", "/never", "", server.address()), 1000, 700);
            assertTrue(e.failed());
            assertInstanceOf(ResponseTimeoutException.class, e.failure(), "the response timeout, not a dead peer");
            assertTrue(server.pings.get() >= 4, "PINGs while waiting: " + server.pings.get());
            assertEquals(1, server.connections.get());
            g.close();
        }
    }
}
