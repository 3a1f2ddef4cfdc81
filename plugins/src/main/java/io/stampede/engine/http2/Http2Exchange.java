/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.http2;

import io.stampede.engine.CompletionQueue;
import io.stampede.engine.Failures;
import io.stampede.engine.http1.Http1Exchange;
import io.stampede.engine.HttpProtocol;
import io.stampede.engine.ReceivedResponse;
import io.stampede.engine.http1.ResponseFramer;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One stream slot of an {@link Http2Connection}, reused for the slot's life: the owning JMeter thread {@link #arm
 * arms} it with a request, the connection's event loop opens a stream for it when the connection has room (the
 * server's SETTINGS_MAX_CONCURRENT_STREAMS and ours), fills its response and puts it on the owner's
 * {@link CompletionQueue}; the owner {@link #take takes} it and reads the outcome. On a connection whose server chose
 * HTTP/1.1 in ALPN the same slot carries one HTTP/1.1 exchange instead.
 *
 * <p>As in {@link Http1Exchange}, the state field decides races: only the thread that moves it out of ARMED or SENT
 * publishes an outcome, so each outcome is delivered exactly once.
 */
public final class Http2Exchange extends CompletionQueue.Node implements Runnable {
    static final int ARMED = 0;
    static final int SENT = 1;
    private static final int COMPLETING = 2;
    private static final int DONE = 3;
    private static final int FAILED = 4;
    static final int HELD = 5;

    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(Http2Exchange.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Http2Connection connection;
    private final CompletionQueue queue;
    final Http2Response h2 = new Http2Response();
    final ResponseFramer h1 = new ResponseFramer();
    private volatile int state = HELD;
    private volatile long deadlineNanos;

    // Written by the owner before arming (published by the event loop hand-off).
    Http2Request request;
    int responseBytesKept;
    private long responseTimeoutNanos;
    private long intendedNanos;

    // Written on the event loop before the outcome is published.
    long connectStartNanos;
    long connectEndNanos;
    long sentNanos;
    long firstByteNanos;
    long doneNanos;
    long sentBytes;
    int streamId;
    /** The carrier the exchange went out on (for a cancel); null while waiting. */
    Object carrier;
    boolean http1;
    boolean retried;
    private IOException failure;

    Http2Exchange(Http2Connection connection, CompletionQueue queue) {
        this.connection = connection;
        this.queue = queue;
    }

    /** Owner: sends {@code req} now, on a stream of this slot's connection. */
    public void arm(Http2Request req, int responseBytesKept, int responseTimeoutMillis) {
        armHeld(req, responseBytesKept, responseTimeoutMillis);
        connection.release();
    }

    /** As {@link #arm}, but the request waits in its connection's outbox until {@link Http2Connection#release}. */
    void armHeld(Http2Request req, int responseBytesKept, int responseTimeoutMillis) {
        request = req;
        intendedNanos = System.nanoTime();
        this.responseBytesKept = responseBytesKept;
        responseTimeoutNanos = responseTimeoutMillis * 1_000_000L;
        connectStartNanos = 0;
        connectEndNanos = 0;
        sentNanos = 0;
        firstByteNanos = 0;
        doneNanos = 0;
        sentBytes = 0;
        streamId = 0;
        carrier = null;
        failure = null;
        retried = false;
        http1 = false;
        state = ARMED;
        connection.hold(this);
    }

    /** On the event loop, out of the connection's outbox: the armed exchange waits there for a stream. */
    @Override
    public void run() {
        connection.accept(this);
    }

    int state() {
        return state;
    }

    long deadlineNanos() {
        return deadlineNanos;
    }

    /**
     * Event loop: the request is about to go out on stream {@code stream} of {@code on} (0: as HTTP/1.1 after an ALPN
     * fallback); false if the owner failed the exchange meanwhile.
     */
    boolean send(long now, Object on, int stream) {
        if (!STATE.compareAndSet(this, ARMED, SENT)) {
            return false;
        }
        boolean overHttp1 = stream == 0;
        sentNanos = now;
        firstByteNanos = 0; // as arm() did, again here: a late frame of a stream timed out could have set it since
        carrier = on;
        streamId = stream;
        http1 = overHttp1;
        if (overHttp1) {
            h1.reset(request.head(), responseBytesKept);
        } else {
            h2.reset(responseBytesKept);
        }
        deadlineNanos = now + responseTimeoutNanos;
        return true;
    }

    /** Event loop: the connection went away under a stream the server did not process; it waits for another. */
    boolean unsend() {
        if (!STATE.compareAndSet(this, SENT, ARMED)) {
            return false;
        }
        deadlineNanos = 0;
        carrier = null;
        streamId = 0;
        sentBytes = 0;
        firstByteNanos = 0;
        connectStartNanos = 0;
        connectEndNanos = 0;
        return true;
    }

    void succeed(long now) {
        doneNanos = now;
        complete(SENT, DONE, null, true);
    }

    /** Event loop, in a read: as {@link #succeed}, but the owner is woken by the read's end (one wake per read). */
    void succeedInRead(long now) {
        doneNanos = now;
        complete(SENT, DONE, null, false);
    }

    /** Any thread: fails the exchange if it still waits to be sent or for its response; true if it did. */
    boolean fail(IOException why) {
        return complete(SENT, FAILED, why, true) || complete(ARMED, FAILED, why, true);
    }

    /**
     * Event loop: fails the exchange if it still waits for the response of the stream it went out on; true if it
     * did. A stream's own failures use this, never {@link #fail}: once the owner timed the stream out it may arm the
     * exchange again at any moment, and only the loop moves an armed exchange to SENT.
     */
    boolean failSent(IOException why) {
        return complete(SENT, FAILED, why, true);
    }

    private boolean complete(int from, int to, IOException why, boolean wake) {
        if (STATE.compareAndSet(this, from, COMPLETING)) {
            failure = why;
            deadlineNanos = 0;
            state = to;
            if (wake) {
                queue.offer(this);
            } else {
                queue.add(this);
            }
            return true;
        }
        return false;
    }

    /**
     * Owner: fails the exchange with a response timeout if its deadline passed. Only its stream is cancelled
     * (RST_STREAM CANCEL); the other streams of the connection go on.
     */
    public boolean expireIfOverdue(long nowNanos) {
        long d = deadlineNanos;
        if (d == 0 || nowNanos - d < 0 || !complete(SENT, FAILED, Failures.responseTimeout(), true)) {
            return false;
        }
        connection.cancel(this);
        return true;
    }

    /** Owner: takes the outcome; the exchange is held until armed again. */
    public void take() {
        state = HELD;
    }

    public boolean failed() {
        return failure != null;
    }

    public IOException failure() {
        return failure;
    }

    /** The response: HTTP/2's, or HTTP/1.1's when the server chose it in ALPN. Valid until the next arm. */
    public ReceivedResponse response() {
        return http1 ? h1 : h2;
    }

    /**
     * The protocol this exchange went out in, as ALPN names it: {@code h2} (TLS), {@code h2c} (cleartext, prior
     * knowledge), or {@link HttpProtocol#ALPN_FALLBACK} when the server did not choose h2 in ALPN; empty when it never
     * went out (a failed connect).
     */
    public String negotiated() {
        if (sentNanos == 0) {
            return "";
        }
        return http1 ? HttpProtocol.ALPN_FALLBACK : connection.secure() ? HttpProtocol.H2.id() : HttpProtocol.H2C.id();
    }

    /** "HTTP/2" or "HTTP/1.1": what carried this exchange. */
    public String protocol() {
        return http1 ? "HTTP/1.1" : "HTTP/2";
    }

    public Http2Request request() {
        return request;
    }

    public long intendedNanos() {
        return intendedNanos;
    }

    /** When this exchange started: the connect if it opened the connection, else the stream's first frame. */
    public long startNanos() {
        return connectStartNanos != 0 ? connectStartNanos : sentNanos;
    }

    /** Connect duration in ns (TCP, TLS and the server's SETTINGS), 0 unless this stream opened the connection. */
    public long connectNanos() {
        return connectStartNanos != 0 && connectEndNanos != 0 ? connectEndNanos - connectStartNanos : 0;
    }

    /** When the first HEADERS frame (HTTP/1.1: the first byte) of the response arrived. */
    public long firstByteNanos() {
        return firstByteNanos;
    }

    public long doneNanos() {
        return doneNanos;
    }

    /** Bytes sent for this request: the compressed header block plus DATA (HTTP/1.1: the request's bytes). */
    public long sentBytes() {
        return http1 ? request.http1().length() : sentBytes;
    }

    /** The stream id this exchange last went out on (0 over HTTP/1.1 or when never sent). */
    public int streamId() {
        return streamId;
    }
}
