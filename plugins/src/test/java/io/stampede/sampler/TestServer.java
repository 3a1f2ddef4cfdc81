/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sampler;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real HTTP/1.1 server on a loopback port whose behaviour per request is scripted by the test: it answers, resets,
 * closes early or stalls, over real sockets. One platform thread per connection; everything closes with the server.
 */
final class TestServer implements AutoCloseable {
    /** What to do with one request; the n-th request on its connection is numbered from 0. */
    interface Behaviour {
        void respond(Socket socket, OutputStream out, String request, int n) throws IOException;
    }

    static final String OK_BODY = "0123456789abcdefgh";
    static final String OK = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 18\r\n\r\n" + OK_BODY;

    private final ServerSocket server;
    private final Behaviour behaviour;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    final AtomicInteger connections = new AtomicInteger();

    /**
     * The accepted-connection count once it reaches {@code expected}, or as it stands after 2 s. A client's connect
     * completes in the kernel before this server's accept thread counts it, so a count read at once can lag.
     */
    int awaitConnections(int expected) throws InterruptedException {
        long deadline = System.nanoTime() + 2_000_000_000L;
        while (connections.get() < expected && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        return connections.get();
    }
    final List<String> requests = new CopyOnWriteArrayList<>();

    TestServer(Behaviour behaviour) throws IOException {
        this.behaviour = behaviour;
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread t = new Thread(this::acceptLoop, "test-server-accept");
        t.setDaemon(true);
        t.start();
    }

    static TestServer answering(String response) throws IOException {
        return new TestServer((s, out, req, n) -> out.write(response.getBytes(StandardCharsets.ISO_8859_1)));
    }

    int port() {
        return server.getLocalPort();
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                connections.incrementAndGet();
                sockets.add(s);
                Thread t = new Thread(() -> serve(s), "test-server-conn");
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket s) {
        try (s) {
            InputStream in = s.getInputStream();
            OutputStream out = s.getOutputStream();
            for (int n = 0; ; n++) {
                String req = readRequest(in);
                if (req == null) {
                    return;
                }
                requests.add(req);
                behaviour.respond(s, out, req, n);
                out.flush();
                if (s.isClosed()) {
                    return;
                }
            }
        } catch (IOException e) {
            // The client went away; nothing to do in a test server.
        }
    }

    /** Reads one request: headers up to the blank line, then Content-Length body bytes. Null at end of stream. */
    private static String readRequest(InputStream in) throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) >= 0) {
            buf.write(b);
            String s = buf.toString(StandardCharsets.ISO_8859_1);
            if (s.endsWith("\r\n\r\n")) {
                int len = 0;
                for (String line : s.split("\r\n")) {
                    if (line.toLowerCase().startsWith("content-length:")) {
                        len = Integer.parseInt(line.substring(15).trim());
                    }
                }
                buf.write(in.readNBytes(len));
                return buf.toString(StandardCharsets.ISO_8859_1);
            }
        }
        return null;
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (Socket s : sockets) {
            s.close();
        }
    }
}
