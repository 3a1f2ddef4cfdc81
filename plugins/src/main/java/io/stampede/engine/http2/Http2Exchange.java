/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.http2;

import io.stampede.engine.CompletionQueue;
import io.stampede.engine.Exchange;
import io.stampede.engine.HttpProtocol;
import io.stampede.engine.PreparedRequest;
import io.stampede.engine.ReceivedResponse;
import io.stampede.engine.http1.ResponseFramer;

import io.stampede.names.PluginNames;
import java.io.IOException;

/**
 * One stream slot of an {@link Http2Connection}, reused for the slot's life: the owning JMeter thread {@link #arm
 * arms} it with a request, the connection's event loop opens a stream for it when the connection has room (the
 * server's SETTINGS_MAX_CONCURRENT_STREAMS and ours), fills its response and puts it on the owner's
 * {@link CompletionQueue}; the owner {@link #take takes} it and reads the outcome. On a connection whose server chose
 * HTTP/1.1 in ALPN the same slot carries one HTTP/1.1 exchange instead. The states, the race rules and the times are
 * the engine's {@link Exchange}'s; here is what HTTP/2 adds: the stream it went out on, the bytes its frames carried.
 */
public final class Http2Exchange extends Exchange implements Runnable {
    private final Http2Connection connection;
    final Http2Response h2 = new Http2Response();
    final ResponseFramer h1 = new ResponseFramer();

    // Written by the owner before arming (published by the event loop hand-off).
    Http2Request request;

    // Written on the event loop before the outcome is published.
    long sentBytes;
    int streamId;
    /** The carrier the exchange went out on (for a cancel); null while waiting. */
    Carrier carrier;
    boolean http1;

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
        begin(System.nanoTime(), responseBytesKept, responseTimeoutMillis);
        sentBytes = 0;
        streamId = 0;
        carrier = null;
        http1 = false;
        setState(ARMED);
        connection.hold(this);
    }

    /** On the event loop, out of the connection's outbox: the armed exchange waits there for a stream. */
    @Override
    public void run() {
        connection.accept(this);
    }

    /**
     * Event loop: the request is about to go out on stream {@code stream} of {@code on} (0: as HTTP/1.1 after an ALPN
     * fallback); false if the owner failed the exchange meanwhile.
     */
    boolean send(long now, Carrier on, int stream) {
        if (!moveState(ARMED, SENT)) {
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
        startResponseTimeout(now);
        return true;
    }

    /** Event loop: the connection went away under a stream the server did not process; it waits for another. */
    boolean unsend() {
        if (!moveState(SENT, ARMED)) {
            return false;
        }
        clearDeadline();
        carrier = null;
        streamId = 0;
        sentBytes = 0;
        firstByteNanos = 0;
        connectStartNanos = 0;
        connectEndNanos = 0;
        return true;
    }

    void succeed(long now) {
        succeed(now, true);
    }

    /** Event loop, in a read: as {@link #succeed}, but the owner is woken by the read's end (one wake per read). */
    void succeedInRead(long now) {
        succeed(now, false);
    }

    /**
     * Event loop: fails the exchange if it still waits for the response of the stream it went out on; true if it
     * did. A stream's own failures use this, never {@link #fail}: once the owner timed the stream out it may arm the
     * exchange again at any moment, and only the loop moves an armed exchange to SENT.
     */
    boolean failSent(IOException why) {
        return complete(SENT, FAILED, why, true);
    }

    /** After a response timeout only its stream is cancelled (RST_STREAM CANCEL); the other streams go on. */
    @Override
    protected void timedOut() {
        connection.cancel(this);
    }

    /** The response: HTTP/2's, or HTTP/1.1's when the server chose it in ALPN. Valid until the next arm. */
    @Override
    public ReceivedResponse response() {
        return http1 ? h1 : h2;
    }

    /**
     * The protocol this exchange went out in, as ALPN names it: {@code h2} (TLS), {@code h2c} (cleartext, prior
     * knowledge), or {@link PluginNames#ALPN_FALLBACK} when the server did not choose h2 in ALPN; empty when it never
     * went out (a failed connect).
     */
    @Override
    public String negotiated() {
        if (sentNanos == 0) {
            return "";
        }
        return http1 ? PluginNames.ALPN_FALLBACK : connection.secure() ? HttpProtocol.H2.id() : HttpProtocol.H2C.id();
    }

    /** "HTTP/2" or "HTTP/1.1": what carried this exchange. */
    public String protocol() {
        return http1 ? "HTTP/1.1" : "HTTP/2";
    }

    public Http2Request request() {
        return request;
    }

    @Override
    public PreparedRequest requestShown() {
        return request.http1();
    }

    /** Bytes sent for this request: the compressed header block plus DATA (HTTP/1.1: the request's bytes). */
    @Override
    public long sentBytes() {
        return http1 ? request.http1().length() : sentBytes;
    }

    /** The stream id this exchange last went out on (0 over HTTP/1.1 or when never sent). */
    public int streamId() {
        return streamId;
    }
}
