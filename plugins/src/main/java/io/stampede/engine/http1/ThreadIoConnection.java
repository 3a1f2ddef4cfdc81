/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.http1;

import io.stampede.engine.Engine;
import io.stampede.engine.Failures;
import io.stampede.engine.PreparedRequest;
import io.stampede.engine.ResponseDeadlines;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.SocketChannel;

/**
 * The classic mode's plain-TCP connection when the JMeter thread does its own I/O ({@code stampede.io_mode} auto or
 * thread): one request at a time, written and read by the calling thread with blocking socket calls, as JMeter's
 * HttpClient4 does. The kernel wakes the thread when the response arrives; no event loop reads it and no second
 * thread is woken per request (issue 13 measured that hand-off at about a third of the classic path's CPU).
 *
 * <p>One system call per write and per read: a blocking {@link SocketChannel} with direct buffers. A timed read of a
 * JDK socket costs three (a read that finds nothing, a poll, the read) plus a thread-local lookup for a temporary
 * direct buffer, and a timed connect leaves a JDK socket non-blocking for good; so the reads block without a timeout
 * and {@link ResponseDeadlines} closes the socket of an overdue response (up to one tick late), and the connect goes
 * through the channel's socket adaptor, which restores blocking mode afterwards.
 *
 * <p>Everything else is the engine's: the one HTTP/1.1 {@link ResponseReader} (and its stale keep-alive retry rule),
 * the {@link Http1Exchange} that carries the outcome and its times to the result filler, the {@link Failures} names
 * and the open connection count. Timing: the connect is timed around the socket's connect, the first byte when the first read
 * returns, the end when the framer completes. The response timeout covers the whole response. Only the owner calls
 * {@link #send}; {@link #interrupt()} may come from any thread. An interrupt of the owning thread (JMeter's stop now)
 * closes the channel as it does any NIO channel; the sample then fails as interrupted.
 */
public final class ThreadIoConnection implements ResponseDeadlines.Watched, ResponseReader.OnWire<Http1Exchange> {
    /** {@link #deadline} once the engine's check closed the socket for the response in flight. */
    private static final long EXPIRED = Long.MIN_VALUE;
    private static final VarHandle DEADLINE;

    static {
        try {
            DEADLINE = MethodHandles.lookup().findVarHandle(ThreadIoConnection.class, "deadline", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Engine engine;
    private final InetSocketAddress remote;
    private final Http1Exchange exchange = new Http1Exchange(null);
    private final ByteBuffer input = ByteBuffer.allocateDirect(16 * 1024);
    /** The same memory as {@link #input}, as the framer reads it. */
    private final ByteBuf inputBuffer = Unpooled.wrappedBuffer(input);
    private volatile SocketChannel channel;
    /** The exchange whose response is being read; null once it completed. Owner only. */
    private Http1Exchange reading;
    /** Whether the current channel connected (it is counted open and watched until closed). */
    private boolean connected;
    /** Requests sent on the current socket: a stale keep-alive connection is one that already carried one. */
    private int sentOnSocket;
    private volatile boolean interrupted;
    /**
     * When the response in flight times out (System.nanoTime()); 0 while none is in flight, {@link #EXPIRED} once the
     * engine's check closed the socket for it. Only the owner sets it; the owner and the check clear it by CAS, so
     * exactly one of them decides whether a response that completes at its deadline was in time.
     */
    private volatile long deadline;

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
    public Http1Exchange send(PreparedRequest request, int responseBytesKept, int connectTimeoutMillis,
                         int responseTimeoutMillis) {
        Http1Exchange e = exchange;
        e.beginOnCaller(request, System.nanoTime(), responseBytesKept);
        interrupted = false;
        for (;;) {
            boolean fresh = channel == null;
            try {
                if (fresh) {
                    connect(e, connectTimeoutMillis);
                }
                exchange(e, responseTimeoutMillis);
                return e;
            } catch (IOException x) {
                closeSocket();
                if (interrupted || x instanceof ClosedByInterruptException) {
                    e.endedOnCaller(Failures.interrupted(), 0);
                    return e;
                }
                // The one retry rule, as on the event loop: a reused connection that the server closed or reset as
                // the request went out, before any response byte, gets the request once more on a new connection.
                if (fresh || !ResponseReader.mayRetry(e, e.framer, true, sentOnSocket, x)) {
                    e.endedOnCaller(x, 0);
                    return e;
                }
                e.retrying();
            }
        }
    }

    private void connect(Http1Exchange e, int timeoutMillis) throws IOException {
        SocketChannel ch = SocketChannel.open();
        channel = ch;
        if (interrupted) {
            throw Failures.interrupted();
        }
        long start = System.nanoTime();
        try {
            ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
            ch.socket().connect(remote, Math.max(1, timeoutMillis));
        } catch (SocketTimeoutException t) {
            throw Failures.connectTimeout(remote);
        }
        e.connected(start, System.nanoTime());
        connected = true;
        sentOnSocket = 0;
        engine.connectionOpened();
        engine.responseDeadlines().watch(this);
    }

    private void exchange(Http1Exchange e, int timeoutMillis) throws IOException {
        PreparedRequest req = e.request;
        e.readingStarts();
        long sent = System.nanoTime();
        e.sentOnCaller(sent);
        sentOnSocket++;
        long d = sent + timeoutMillis * 1_000_000L;
        if (d == 0 || d == EXPIRED) {
            d++;
        }
        deadline = d;
        long done;
        try {
            done = writeAndRead(e, req, d);
        } catch (IOException x) {
            if (!DEADLINE.compareAndSet(this, d, 0L)) {
                deadline = 0;
                throw Failures.responseTimeout(); // the engine's check closed the socket under the read
            }
            throw x;
        }
        if (!DEADLINE.compareAndSet(this, d, 0L)) {
            // The check closed the socket as the response completed: in time if it completed before the deadline.
            deadline = 0;
            closeSocket();
            if (done - d >= 0) {
                throw Failures.responseTimeout();
            }
        }
        e.endedOnCaller(null, done);
    }

    /** Writes the request and reads until its response is complete; returns when it completed (System.nanoTime()). */
    private long writeAndRead(Http1Exchange e, PreparedRequest req, long deadlineNanos) throws IOException {
        SocketChannel ch = channel;
        ByteBuffer out = req.wireBuffer();
        while (out.hasRemaining()) {
            ch.write(out);
        }
        for (;;) {
            input.clear();
            int n = ch.read(input);
            long now = System.nanoTime();
            if (n < 0) {
                if (e.framer.closeReceived()) {
                    closeSocket();
                    return now;
                }
                throw e.framer.closedEarly();
            }
            inputBuffer.setIndex(0, n);
            reading = e;
            boolean carriesOn = ResponseReader.read(inputBuffer, this, now);
            if (reading == null) {
                if (!carriesOn) {
                    closeSocket();
                }
                return now;
            }
            if (now - deadlineNanos >= 0) {
                throw Failures.responseTimeout();
            }
        }
    }

    @Override
    public Http1Exchange awaiting() {
        return reading;
    }

    @Override
    public ResponseFramer framer(Http1Exchange e) {
        return e.framer;
    }

    @Override
    public void completed(Http1Exchange e, long nowNanos) {
        reading = null;
    }

    /**
     * The engine's check, on an event loop: closes the socket if the response in flight is overdue at {@code now},
     * which ends the owner's blocked read (the owner then reports the response timeout and does the bookkeeping).
     */
    @Override
    public void expireIfOverdue(long now) {
        long d = deadline;
        if (d == 0 || d == EXPIRED || now - d < 0) {
            return;
        }
        // Read after the deadline, so it is the channel that deadline was set for (or a later one if the owner
        // moved on, in which case the CAS fails).
        SocketChannel ch = channel;
        if (DEADLINE.compareAndSet(this, d, EXPIRED)) {
            closeQuietly(ch);
        }
    }

    /** Any thread (stop test now): the send in progress ends at once with an InterruptedIOException. */
    public void interrupt() {
        interrupted = true;
        closeQuietly(channel); // the owner's blocked call fails now; the owner does the bookkeeping
    }

    /** Closes the socket; the next send connects anew. */
    public void closeChannel() {
        closeSocket();
    }

    private void closeSocket() {
        SocketChannel ch = channel;
        if (ch == null) {
            return;
        }
        channel = null;
        closeQuietly(ch);
        if (connected) {
            connected = false;
            engine.responseDeadlines().forget(this);
            engine.connectionClosed();
        }
    }

    /** Closes {@code ch} (null: nothing to close); a failing close still releases the descriptor. */
    private static void closeQuietly(SocketChannel ch) {
        if (ch == null) {
            return;
        }
        try {
            ch.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }
}
