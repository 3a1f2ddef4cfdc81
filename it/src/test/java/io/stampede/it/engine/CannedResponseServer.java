/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.engine;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Predicate;
import javax.net.ssl.SSLContext;

/**
 * A loopback server that answers each request with bytes chosen by its path, exactly as given (no HTTP library in
 * between, so malformed responses reach the client as written). It reads requests one after another on a connection,
 * so pipelined requests are answered in order, and closes the connection after a response when told to. It counts
 * the requests and the connections per path, for checking connection reuse.
 */
final class CannedResponseServer implements AutoCloseable {
    /** What to send for one request, and whether the connection ends after it. */
    record Answer(byte[] bytes, boolean close) {
    }

    private final ServerSocket server;
    private final Function<String, Answer> answers;
    private final Thread acceptor;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final AtomicLong connectionIds = new AtomicLong();
    private final Map<String, Set<Long>> connectionsByPath = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> requestsByPath = new ConcurrentHashMap<>();
    private volatile boolean closed;

    private CannedResponseServer(ServerSocket server, Function<String, Answer> answers) {
        this.server = server;
        this.answers = answers;
        this.acceptor = new Thread(this::accept, "canned-accept-" + server.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** A plain server, or TLS when {@code tls} is not null, on 127.0.0.1 and a free port. */
    static CannedResponseServer start(Function<String, Answer> answers, SSLContext tls) {
        try {
            InetAddress loopback = InetAddress.getByName("127.0.0.1");
            ServerSocket s = tls == null ? new ServerSocket(0, 200, loopback)
                    : tls.getServerSocketFactory().createServerSocket(0, 200, loopback);
            return new CannedResponseServer(s, answers);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open a loopback server socket", e);
        }
    }

    int port() {
        return server.getLocalPort();
    }

    int requests(String path) {
        AtomicInteger n = requestsByPath.get(path);
        return n == null ? 0 : n.get();
    }

    int connections(String path) {
        Set<Long> ids = connectionsByPath.get(path);
        return ids == null ? 0 : ids.size();
    }

    /** How many connections carried requests for any path {@code which} accepts. */
    int connections(Predicate<String> which) {
        Set<Long> ids = new HashSet<>();
        connectionsByPath.forEach((path, set) -> {
            if (which.test(path)) {
                ids.addAll(set);
            }
        });
        return ids.size();
    }

    private void accept() {
        while (!closed) {
            try {
                Socket s = server.accept();
                sockets.add(s);
                long id = connectionIds.incrementAndGet();
                Thread t = new Thread(() -> serve(s, id), "canned-conn-" + id);
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void serve(Socket s, long id) {
        try (s; InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
            for (;;) {
                String path = readRequestPath(in);
                if (path == null) {
                    return;
                }
                requestsByPath.computeIfAbsent(path, p -> new AtomicInteger()).incrementAndGet();
                connectionsByPath.computeIfAbsent(path, p -> ConcurrentHashMap.newKeySet()).add(id);
                Answer a = answers.apply(path);
                out.write(a.bytes());
                out.flush();
                if (a.close()) {
                    return;
                }
            }
        } catch (IOException e) {
            // The client closed or reset (it does so after a malformed response): nothing to answer.
        } finally {
            sockets.remove(s);
        }
    }

    /** Reads one request head (the samplers send no body with GET) and returns its path, or null at the end. */
    private static String readRequestPath(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream(256);
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                return null;
            }
            head.write(b);
            matched = (b == '\r' && (matched == 0 || matched == 2)) || (b == '\n' && (matched == 1 || matched == 3))
                    ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        String requestLine = head.toString(StandardCharsets.ISO_8859_1).lines().findFirst().orElse("");
        String[] parts = requestLine.split(" ");
        return parts.length >= 2 ? parts[1] : requestLine;
    }

    @Override
    public void close() {
        closed = true;
        try {
            server.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        for (Socket s : sockets) {
            try {
                s.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
        try {
            acceptor.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
