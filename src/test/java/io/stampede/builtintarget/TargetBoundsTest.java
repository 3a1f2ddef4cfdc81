/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.builtintarget;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** What keeps one client from exhausting the built-in target: back-pressure, the idle timeout, the connection cap. */
class TargetBoundsTest {
    private static final byte[] GET = "GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    private static TargetSettings settings(int maxConnections, int idleSeconds) {
        return new TargetSettings("127.0.0.1", 0, TargetSettings.DEFAULT_BODY_SIZE, 1, 128, 0, maxConnections,
                idleSeconds);
    }

    @Test
    void aClientThatPipelinesAndNeverReadsIsNotReadEither() throws Exception {
        // 64 MB of requests: 2.4 million answers would wait in the target's memory if it read them all. Once the
        // target stops reading, the writes stall when the kernel's buffers are full.
        long total = 64L * 1024 * 1024;
        AtomicLong written = new AtomicLong();
        try (TargetServer server = TargetServer.start(settings(10, 0)); Socket s = new Socket()) {
            s.setReceiveBufferSize(4096);
            s.connect(server.address());
            byte[] batch = new byte[GET.length * 1024];
            for (int i = 0; i < 1024; i++) {
                System.arraycopy(GET, 0, batch, i * GET.length, GET.length);
            }
            Thread writer = new Thread(() -> {
                try {
                    OutputStream out = s.getOutputStream();
                    while (written.get() < total) {
                        out.write(batch);
                        written.addAndGet(batch.length);
                    }
                } catch (IOException e) {
                    // the test closed the socket under the blocked write
                }
            }, "pipelining-client");
            writer.start();
            // Until the target paused this connection and the kernel's buffers are full (a second without a
            // byte more); bounded, on a machine however loaded.
            long last = -1;
            for (int stillFor = 0, waited = 0; stillFor < 5 && waited < 300 && written.get() < total; waited++) {
                Thread.sleep(200);
                long now = written.get();
                stillFor = now == last && server.pausedConnections() == 1 ? stillFor + 1 : 0;
                last = now;
            }
            int pausedThen = server.pausedConnections();
            long stalledAt = written.get();
            s.close();
            writer.join(10_000);
            assertEquals(1, pausedThen, "the target stopped reading the connection");
            assertTrue(stalledAt < total / 2, "the target read " + stalledAt + " of " + total
                    + " bytes of requests whose answers nobody read");
        }
    }

    @Test
    void anIdleConnectionIsClosed() throws Exception {
        try (TargetServer server = TargetServer.start(settings(10, 1));
             Socket s = new Socket("127.0.0.1", server.address().getPort())) {
            s.setSoTimeout(5000);
            s.getOutputStream().write(GET);
            InputStream in = s.getInputStream();
            String first = readResponse(in);
            assertTrue(first.startsWith("HTTP/1.1 200 OK"), first);
            long start = System.nanoTime();
            try {
                assertEquals(-1, in.read(), "nothing but the close after the answer");
            } catch (SocketTimeoutException e) {
                throw new AssertionError("an idle connection stayed open for 5 s with --idle-timeout 1", e);
            }
            long ms = (System.nanoTime() - start) / 1_000_000;
            assertTrue(ms >= 500, "closed after about a second of idleness, not at once: " + ms + " ms");
        }
    }

    @Test
    void aConnectionOverTheCapIsAnswered503AndClosed() throws Exception {
        try (TargetServer server = TargetServer.start(settings(2, 0));
             Socket a = new Socket("127.0.0.1", server.address().getPort());
             Socket b = new Socket("127.0.0.1", server.address().getPort())) {
            for (Socket s : new Socket[] {a, b}) {
                s.setSoTimeout(5000);
                s.getOutputStream().write(GET);
                assertTrue(readResponse(s.getInputStream()).startsWith("HTTP/1.1 200 OK"));
            }
            try (Socket c = new Socket("127.0.0.1", server.address().getPort())) {
                c.setSoTimeout(5000);
                String refused = new String(c.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
                assertTrue(refused.startsWith("HTTP/1.1 503 Service Unavailable\r\n"), refused);
                assertTrue(refused.endsWith("stampede target: --max-connections 2 reached\n"), refused);
            }
            assertEquals(1, server.refusedConnections());
            assertEquals(2, server.openConnections());
            a.close();
            for (int i = 0; i < 100 && server.openConnections() > 1; i++) {
                Thread.sleep(20);
            }
            try (Socket d = new Socket("127.0.0.1", server.address().getPort())) {
                d.setSoTimeout(5000);
                d.getOutputStream().write(GET);
                assertTrue(readResponse(d.getInputStream()).startsWith("HTTP/1.1 200 OK"),
                        "a closed connection frees its place");
            }
        }
    }

    @Test
    void boundsOutOfRangeAreNamedWithTheirOption() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> settings(0, 60)).getMessage()
                .startsWith("--max-connections 0 is out of range: use 1 to 1000000"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> settings(10, -1)).getMessage()
                .startsWith("--idle-timeout -1 is out of range: use 0 (never) to 86400 seconds"));
    }

    /** One answer with the target's 18-byte body: the head up to its blank line, then the body. */
    private static String readResponse(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        while (!b.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
            int c = in.read();
            if (c < 0) {
                break;
            }
            b.write(c);
        }
        b.write(in.readNBytes(TargetSettings.DEFAULT_BODY_SIZE));
        return b.toString(StandardCharsets.US_ASCII);
    }
}
