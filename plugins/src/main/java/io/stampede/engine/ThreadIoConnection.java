/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;

/**
 * The classic mode's plain-TCP connection when the JMeter thread does its own I/O ({@code stampede.io_mode} auto or
 * thread): one request at a time, written and read by the calling thread with blocking socket calls, as JMeter's
 * HttpClient4 does. The kernel wakes the thread when the response arrives; no event loop reads it and no second
 * thread is woken per request (issue 13 measured that hand-off at about a third of the classic path's CPU).
 *
 * <p>Everything else is the engine's: the {@link ResponseFramer}, the {@link Exchange} that carries the outcome and
 * its times to the result filler, the {@link Failures} names, the stale keep-alive retry rule and the open
 * connection count. Timing: the connect is timed around the socket's connect, the first byte when the first read
 * returns, the end when the framer completes. The response timeout covers the whole response (each read waits only
 * for what is left of it). Only the owner calls {@link #send}; {@link #interrupt()} may come from any thread.
 */
public final class ThreadIoConnection {
    private final Engine engine;
    private final InetSocketAddress remote;
    private final Exchange exchange = new Exchange(null);
    private final byte[] input = new byte[16 * 1024];
    private final ByteBuf inputBuffer = Unpooled.wrappedBuffer(input);
    private volatile Socket socket;
    private InputStream in;
    private OutputStream out;
    /** Requests sent on the current socket: a stale keep-alive connection is one that already carried one. */
    private int sentOnSocket;
    private volatile boolean interrupted;

    public ThreadIoConnection(Engine engine, InetSocketAddress remote) {
        this.engine = engine;
        this.remote = remote;
    }

    /** False once the engine it was made on stopped (a test ended): replace it. */
    public boolean usable() {
        return engine.isCurrent();
    }

    /** The server this connection (re)connects to. */
    public InetSocketAddress remote() {
        return remote;
    }

    /**
     * Sends {@code request} and reads its response on the calling thread, connecting first when no socket is open.
     * The exchange returned holds the outcome (response or failure) until the next send.
     */
    public Exchange send(PreparedRequest request, int responseBytesKept, int connectTimeoutMillis,
                         int responseTimeoutMillis) {
        Exchange e = exchange;
        e.beginOnCaller(request, System.nanoTime(), responseBytesKept);
        interrupted = false;
        for (;;) {
            boolean fresh = socket == null;
            try {
                if (fresh) {
                    connect(e, connectTimeoutMillis);
                }
                exchange(e, responseTimeoutMillis);
                return e;
            } catch (IOException x) {
                closeSocket();
                if (interrupted) {
                    e.endOnCaller(Failures.interrupted(), 0);
                    return e;
                }
                // The one retry rule, as on the event loop: a reused connection that the server closed or reset as
                // the request went out, before any response byte, gets the request once more on a new connection.
                if (fresh || e.retried || e.framer.started() || sentOnSocket <= 1 || !Failures.staleKeepAlive(x)) {
                    e.endOnCaller(x, 0);
                    return e;
                }
                e.retried = true;
            }
        }
    }

    private void connect(Exchange e, int timeoutMillis) throws IOException {
        Socket s = new Socket();
        socket = s;
        if (interrupted) {
            throw Failures.interrupted();
        }
        long start = System.nanoTime();
        try {
            s.setTcpNoDelay(true);
            s.connect(remote, Math.max(1, timeoutMillis));
        } catch (SocketTimeoutException t) {
            throw Failures.connectTimeout(remote);
        }
        e.connectStartNanos = start;
        e.connectEndNanos = System.nanoTime();
        in = s.getInputStream();
        out = s.getOutputStream();
        sentOnSocket = 0;
        engine.connectionOpened();
    }

    private void exchange(Exchange e, int timeoutMillis) throws IOException {
        PreparedRequest req = e.request;
        e.framer.reset(req.head(), e.responseBytesKept);
        long sent = System.nanoTime();
        if (e.sentNanos == 0) {
            e.sentNanos = sent;
        }
        sentOnSocket++;
        out.write(req.wire());
        long deadline = sent + timeoutMillis * 1_000_000L;
        Socket s = socket;
        for (;;) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw Failures.responseTimeout();
            }
            s.setSoTimeout((int) Math.max(1, Math.min(Integer.MAX_VALUE, (left + 999_999L) / 1_000_000L)));
            int n;
            try {
                n = in.read(input);
            } catch (SocketTimeoutException t) {
                throw Failures.responseTimeout();
            }
            long now = System.nanoTime();
            if (n < 0) {
                if (e.framer.closeReceived()) {
                    closeSocket();
                    e.endOnCaller(null, now);
                    return;
                }
                throw Failures.closedByServer(e.framer.progress());
            }
            if (e.firstByteNanos == 0) {
                e.firstByteNanos = now;
            }
            inputBuffer.setIndex(0, n);
            if (e.framer.feed(inputBuffer)) {
                // Bytes after the response mean the stream is out of step with the requests: never reuse it.
                if (!e.framer.reusable() || inputBuffer.isReadable()) {
                    closeSocket();
                }
                e.endOnCaller(null, now);
                return;
            }
        }
    }

    /** Any thread (stop test now): the send in progress ends at once with an InterruptedIOException. */
    public void interrupt() {
        interrupted = true;
        Socket s = socket;
        if (s != null) {
            try {
                s.close(); // the owner's blocked call fails now; the owner does the bookkeeping
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }

    /** Closes the socket; the next send connects anew. */
    public void closeChannel() {
        closeSocket();
    }

    private void closeSocket() {
        Socket s = socket;
        if (s == null) {
            return;
        }
        socket = null;
        try {
            s.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        if (s.isConnected()) {
            engine.connectionClosed();
        }
    }
}
