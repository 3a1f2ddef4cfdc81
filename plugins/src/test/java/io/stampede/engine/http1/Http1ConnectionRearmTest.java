/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.http1;

import io.stampede.engine.ConnectTimeoutException;
import io.stampede.engine.Engine;
import io.stampede.engine.PreparedRequest;
import io.stampede.engine.ResponseTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A depth-1 connection whose exchange timed out and is armed again for the next request before the closed channel's
 * inactive event has run on the loop (the owner is quick; the loop is busy). The order of the loop's tasks is forced
 * here by blocking the loop, so each interleaving runs every time. HttpRequestParityIT met the first one about once
 * in three runs: OPTIONS right after a response timeout failed with "closed by the server before any byte". The same
 * holds for a connect the owner timed out: the next request gets a connect of its own, not the old one's failure.
 */
@Timeout(30)
class Http1ConnectionRearmTest {
    private static final int TIMEOUT_MS = 300;

    private final BlockingQueue<String> requests = new LinkedBlockingQueue<>();
    private ServerSocket server;
    private Thread serverThread;
    private final List<Socket> accepted = new ArrayList<>();
    private final Set<String> dropped = ConcurrentHashMap.newKeySet();
    private Http1Connection connection;
    private ParkingCompletion completion;

    @BeforeEach
    void start() throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        completion = new ParkingCompletion();
        connection = new Http1Connection(Engine.get(), Engine.get().nextLoop(), null, null,
                new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort()), null, 5000, 1, null);
    }

    @AfterEach
    void stop() throws Exception {
        connection.close();
        server.close();
        if (serverThread != null) {
            serverThread.join(5000);
        }
        synchronized (accepted) {
            for (Socket s : accepted) {
                s.close();
            }
        }
    }

    /**
     * Serves each connection: a request whose path starts with /hang gets no answer (the connection stays open), one
     * starting with /drop makes the server close the connection without answering the first time it arrives (a
     * keep-alive timeout on its side as the request came in), any other gets 200 "ok" and the connection is kept.
     */
    private void serve() {
        serverThread = new Thread(() -> {
            try {
                while (true) {
                    Socket s = server.accept();
                    synchronized (accepted) {
                        accepted.add(s);
                    }
                    Thread t = new Thread(() -> answer(s), "server-conn");
                    t.setDaemon(true);
                    t.start();
                }
            } catch (IOException closed) {
                // test over
            }
        }, "server");
        serverThread.setDaemon(true);
        serverThread.start();
    }

    private void answer(Socket s) {
        try (s) {
            InputStream in = s.getInputStream();
            while (true) {
                String head = readHead(in);
                if (head == null) {
                    return;
                }
                String path = head.split(" ")[1];
                requests.add(path);
                if (path.startsWith("/hang")) {
                    while (in.read() >= 0) {
                        // until the client closes
                    }
                    return;
                }
                if (path.startsWith("/drop") && dropped.add(path)) {
                    return;
                }
                s.getOutputStream().write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
                        .getBytes(StandardCharsets.US_ASCII));
            }
        } catch (IOException ignored) {
            // the client went away
        }
    }

    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int c;
        while ((c = in.read()) >= 0) {
            b.write(c);
            byte[] a = b.toByteArray();
            int n = a.length;
            if (n >= 4 && a[n - 4] == '\r' && a[n - 3] == '\n' && a[n - 2] == '\r' && a[n - 1] == '\n') {
                return b.toString(StandardCharsets.US_ASCII);
            }
        }
        return null;
    }

    private Http1Exchange send(String path) {
        return send(path, 10_000);
    }

    private Http1Exchange send(String path, int responseTimeoutMillis) {
        PreparedRequest req = PreparedRequest.ofBytes(("GET " + path + " HTTP/1.1\r\nHost: t\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII), false, null);
        try {
            return completion.send(connection, req, 1024, 10_000, responseTimeoutMillis);
        } finally {
            req.release();
        }
    }

    private static String outcome(Http1Exchange e) {
        return e.failed() ? e.failure().toString() : e.response().status() + " " + new String(e.response().keptBody(),
                StandardCharsets.US_ASCII);
    }

    /** A task that holds the connection's loop until {@code release} opens; {@code running} opens when it runs. */
    private void holdLoop(CountDownLatch running, CountDownLatch release) {
        connection.loop().execute(() -> {
            running.countDown();
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    /**
     * The owner times out a request on a reused keep-alive connection while the loop is held: the channel close it
     * asks for is queued behind the hold, which {@code releaseFirst} ends.
     */
    private void timeOutWhileLoopHeld(CountDownLatch releaseFirst) throws InterruptedException {
        assertEquals("200 ok", outcome(send("/one")));
        assertEquals("200 ok", outcome(send("/two")));
        Http1Exchange slot = connection.exchanges()[0];
        CountDownLatch held = new CountDownLatch(1);
        Thread holder = new Thread(() -> {
            while (slot.state() != Http1Exchange.SENT) {
                Thread.onSpinWait();
            }
            holdLoop(held, releaseFirst); // the request is on the wire; its timeout fires while the loop is held
        });
        holder.setDaemon(true);
        holder.start();
        Http1Exchange timedOut = send("/hang", TIMEOUT_MS);
        assertTrue(held.await(5, TimeUnit.SECONDS));
        assertTrue(timedOut.failed());
        assertEquals(ResponseTimeoutException.class, timedOut.failure().getClass());
    }

    @Test
    void aRequestArmedBeforeTheTimedOutChannelReportsInactiveIsSentNotFailed() throws Exception {
        serve();
        CountDownLatch releaseFirst = new CountDownLatch(1);
        timeOutWhileLoopHeld(releaseFirst);
        // Loop queue now: [hold, close]. A second hold after it, then let the close run: the channel's inactive
        // event is queued behind the second hold, and the next request is armed while it waits there.
        CountDownLatch secondHeld = new CountDownLatch(1);
        CountDownLatch releaseSecond = new CountDownLatch(1);
        holdLoop(secondHeld, releaseSecond);
        releaseFirst.countDown();
        assertTrue(secondHeld.await(5, TimeUnit.SECONDS));
        Http1Exchange slot = connection.exchanges()[0];
        Thread releaser = new Thread(() -> {
            while (slot.state() != Http1Exchange.ARMED) {
                Thread.onSpinWait();
            }
            releaseSecond.countDown(); // loop: the inactive event, then the armed request's send
        });
        releaser.setDaemon(true);
        releaser.start();
        assertEquals("200 ok", outcome(send("/after-timeout")));
        assertTrue(requests.contains("/after-timeout"), "the request reached the server");
    }

    @Test
    void afterATimeoutAndAQuickRearmTheStaleKeepAliveRetryStillApplies() throws Exception {
        serve();
        CountDownLatch releaseFirst = new CountDownLatch(1);
        timeOutWhileLoopHeld(releaseFirst);
        // Loop queue: [hold, close]; the next request's send is queued behind the close, before the inactive event.
        Thread releaser = new Thread(() -> {
            Http1Exchange slot = connection.exchanges()[0];
            while (slot.state() != Http1Exchange.ARMED) {
                Thread.onSpinWait();
            }
            releaseFirst.countDown();
        });
        releaser.setDaemon(true);
        releaser.start();
        assertEquals("200 ok", outcome(send("/three")));
        assertEquals("200 ok", outcome(send("/four")));
        // The server drops the kept-alive connection as the next request arrives: sent once more on a new one.
        requests.clear();
        Http1Exchange dropped = send("/drop-then-retry");
        assertNull(dropped.failure(), () -> "retried on a new connection, got " + dropped.failure());
        assertEquals("200 ok", outcome(dropped));
        assertFalse(requests.isEmpty());
    }

    /**
     * A listening socket whose accept queue is full, so a connect to it hangs (the kernel drops the SYN) until the
     * client gives up; loopback only. The sockets that filled it go to {@code fillers}, to close after the test.
     */
    private static void fillAcceptQueue(ServerSocket hung, List<Socket> fillers) throws IOException {
        for (int i = 0; i < 8; i++) {
            Socket s = new Socket();
            fillers.add(s);
            try {
                s.connect(hung.getLocalSocketAddress(), 200);
            } catch (java.net.SocketTimeoutException full) {
                return;
            }
        }
        throw new IllegalStateException("the accept queue of a backlog-1 socket never filled");
    }

    @Test
    void aRequestArmedBeforeTheTimedOutConnectIsClosedGetsAConnectOfItsOwn() throws Exception {
        int connectTimeout = 300;
        List<Socket> fillers = new ArrayList<>();
        try (ServerSocket hung = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            fillAcceptQueue(hung, fillers);
            connection.close();
            connection = new Http1Connection(Engine.get(), Engine.get().nextLoop(), null, null,
                    new InetSocketAddress(InetAddress.getLoopbackAddress(), hung.getLocalPort()), null, connectTimeout,
                    1, null);
            Http1Exchange slot = connection.exchanges()[0];
            CountDownLatch held = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            Thread holder = new Thread(() -> {
                try {
                    // Hold the loop once the connect is under way: the owner's connect timeout then closes the
                    // channel behind the hold, and the Netty connect timeout is queued there too.
                    while (!connection.loop().submit(connection::connecting).get(5, TimeUnit.SECONDS)) {
                        Thread.sleep(1);
                    }
                    holdLoop(held, release);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            holder.setDaemon(true);
            holder.start();
            PreparedRequest first = request("/first");
            Http1Exchange timedOut = completion.send(connection, first, 1024, connectTimeout, 10_000);
            first.release();
            assertTrue(held.await(5, TimeUnit.SECONDS));
            assertEquals(ConnectTimeoutException.class, timedOut.failure().getClass());
            // The next request is armed while the old connect's close still waits on the held loop.
            Thread releaser = new Thread(() -> {
                while (slot.state() != Http1Exchange.ARMED) {
                    Thread.onSpinWait();
                }
                release.countDown();
            });
            releaser.setDaemon(true);
            releaser.start();
            PreparedRequest second = request("/second");
            long start = System.nanoTime();
            Http1Exchange next = completion.send(connection, second, 1024, connectTimeout, 10_000);
            long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            second.release();
            assertEquals(ConnectTimeoutException.class, next.failure().getClass(), next.failure().toString());
            assertTrue(tookMillis >= connectTimeout - 20, "the second request waited for a connect of its own, not "
                    + "the old one's failure: " + tookMillis + " ms");
        } finally {
            for (Socket s : fillers) {
                s.close();
            }
        }
    }

    private static PreparedRequest request(String path) {
        return PreparedRequest.ofBytes(("GET " + path + " HTTP/1.1\r\nHost: t\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII), false, null);
    }
}
