/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.http2;

import io.stampede.engine.Engine;
import io.stampede.engine.Http2ProtocolException;
import io.stampede.engine.PreparedRequest;
import io.stampede.engine.ReceivedResponse;
import io.stampede.engine.StreamResetException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * HTTP/2 servers that break the rules on purpose, written frame by frame on a plain socket: a header value with
 * CR/LF in it, and a PING flood from a server that reads nothing back.
 */
class Http2MisbehavingServerTest {
    private static final int HEADERS = 1;
    private static final int SETTINGS = 4;
    private static final int PING = 6;

    @AfterAll
    static void stopEngine() {
        Engine.shutdown();
    }

    /** One h2c connection: reads the preface and frames until the first request's HEADERS, then misbehaves. */
    private abstract static class RawServer implements AutoCloseable {
        final ServerSocket listener;
        final Thread thread;
        volatile Throwable failure;

        RawServer() throws IOException {
            listener = new ServerSocket();
            listener.setReceiveBufferSize(8192); // small, so that a client's unread answers pile up at its side
            listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            thread = new Thread(this::serve, "misbehaving-h2-server");
            thread.setDaemon(true);
            thread.start();
        }

        InetSocketAddress address() {
            return (InetSocketAddress) listener.getLocalSocketAddress();
        }

        private void serve() {
            try (Socket s = listener.accept()) {
                DataInputStream in = new DataInputStream(s.getInputStream());
                OutputStream out = s.getOutputStream();
                in.readFully(new byte[24]); // PRI * HTTP/2.0 ...
                out.write(frame(SETTINGS, 0, 0, new byte[0]));
                out.flush();
                while (true) {
                    int length = in.readUnsignedShort() << 8 | in.readUnsignedByte();
                    int type = in.readUnsignedByte();
                    int flags = in.readUnsignedByte();
                    int stream = in.readInt() & 0x7fffffff;
                    in.readFully(new byte[length]);
                    if (type == SETTINGS && (flags & 1) == 0) {
                        out.write(frame(SETTINGS, 1, 0, new byte[0]));
                        out.flush();
                    }
                    if (type == HEADERS) {
                        misbehave(stream, out);
                        return;
                    }
                }
            } catch (IOException | RuntimeException e) {
                failure = e;
            }
        }

        abstract void misbehave(int stream, OutputStream out) throws IOException;

        @Override
        public void close() throws IOException {
            listener.close();
            try {
                thread.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    static byte[] frame(int type, int flags, int stream, byte[] payload) {
        ByteArrayOutputStream f = new ByteArrayOutputStream();
        f.write(payload.length >>> 16);
        f.write(payload.length >>> 8);
        f.write(payload.length);
        f.write(type);
        f.write(flags);
        f.write(stream >>> 24);
        f.write(stream >>> 16);
        f.write(stream >>> 8);
        f.write(stream);
        f.writeBytes(payload);
        return f.toByteArray();
    }

    /**
     * HPACK: the table size update to the 0 we announced (due once our SETTINGS are acknowledged), ":status: 200"
     * from the static table, then a literal field without indexing, not Huffman-coded.
     */
    static byte[] headerBlock(String name, String value) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.write(0x20);
        b.write(0x88);
        b.write(0x00);
        b.write(name.length());
        b.writeBytes(name.getBytes(StandardCharsets.ISO_8859_1));
        b.write(value.length());
        b.writeBytes(value.getBytes(StandardCharsets.ISO_8859_1));
        return b.toByteArray();
    }

    private static Http2Exchange exchange(InetSocketAddress at, int responseTimeoutMs) {
        String text = "GET / HTTP/1.1\r\nHost: 127.0.0.1:" + at.getPort() + "\r\n\r\n";
        Http2Request req = Http2Request.of(PreparedRequest.of(text, "GET", "/", "127.0.0.1", at.getPort(), false),
                "test", false, "127.0.0.1:" + at.getPort());
        Http2Group g = new Http2Group(Engine.get(), at, null, null, Http2Options.DEFAULTS, 1, 1, 20_000, false);
        try {
            return g.next(req, 1000, responseTimeoutMs);
        } finally {
            g.close();
        }
    }

    @Test
    void crLfInAHeaderValueIsAMalformedResponseNotMoreHeaderLines() throws Exception {
        try (RawServer server = new RawServer() {
            @Override
            void misbehave(int stream, OutputStream out) throws IOException {
                out.write(frame(HEADERS, 0x5, stream, headerBlock("x-note", "a\r\ninjected: yes")));
                out.flush();
                try {
                    Thread.sleep(2000); // the client's answer (RST_STREAM) is not read
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }) {
            Http2Exchange e = exchange(server.address(), 10_000);
            if (!e.failed()) {
                ReceivedResponse r = e.response();
                String head = new String(r.headerBlock(), 0, r.headerBlockLength(), StandardCharsets.ISO_8859_1);
                fail("accepted, shown to JMeter as: " + head.replace("\r\n", "|"));
            }
                        assertTrue(e.failure() instanceof Http2ProtocolException || e.failure() instanceof StreamResetException,
                    "a protocol error: " + e.failure());
        }
    }

    @Test
    void aServerFloodingPingsWithoutReadingLosesTheConnectionInsteadOfGrowingOurMemory() throws Exception {
        AtomicLong pingsSent = new AtomicLong();
        long bound = 4_000_000; // 68 MB of PINGs: the flood stops by itself if the client never gives up
        try (RawServer server = new RawServer() {
            @Override
            void misbehave(int stream, OutputStream out) throws IOException {
                byte[] ping = frame(PING, 0, 0, new byte[8]);
                byte[] batch = new byte[ping.length * 1000];
                for (int i = 0; i < 1000; i++) {
                    System.arraycopy(ping, 0, batch, i * ping.length, ping.length);
                }
                while (pingsSent.get() < bound) {
                    out.write(batch); // fails once the client closes the connection
                    pingsSent.addAndGet(1000);
                }
            }
        }) {
            long start = System.nanoTime();
            Http2Exchange e = exchange(server.address(), 30_000);
            long ms = (System.nanoTime() - start) / 1_000_000;
            assertTrue(e.failed(), "a response from a server that sent none");
            assertNotNull(e.failure());
            assertTrue(e.failure() instanceof Http2ProtocolException
                            && e.failure().getMessage().contains("faster than it reads our answers"),
                    "the connection ended for the flood after " + ms + " ms: " + e.failure());
            assertTrue(pingsSent.get() < bound, "the client gave up before the flood's end: " + pingsSent.get());
        }
    }
}
