/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.http1;

import io.netty.buffer.ByteBuf;
import io.stampede.engine.Exchange;
import io.stampede.engine.Failures;

import java.io.IOException;

/**
 * The engine's one HTTP/1.1 response reader: it feeds what a connection read to the {@link ResponseFramer} of the
 * exchange whose response it is, in request order, and holds the one rule for a request that met a stale keep-alive
 * connection. Every HTTP/1.1 connection reads through it: the event loop's {@link Http1Connection} (pipelined or
 * not), the thread's own blocking {@link ThreadIoConnection}, and HTTP/2's connection after the server chose
 * HTTP/1.1 in ALPN.
 */
public final class ResponseReader {
    /** A connection's requests on the wire, as the reader sees them. */
    public interface OnWire<E extends Exchange> {
        /** The exchange the next response bytes belong to, still waiting for them; null when none is. */
        E awaiting();

        /** The framer {@code e}'s response is read into. */
        ResponseFramer framer(E e);

        /** {@code e}'s response completed at {@code nowNanos}; the next exchange on the wire is awaited now. */
        void completed(E e, long nowNanos);
    }

    private ResponseReader() {
    }

    /**
     * Reads the bytes of one read, which may end a response and begin the next (pipelining).
     *
     * @return whether the connection carries on; false when it must close: a response said so (Connection: close,
     *         HTTP/1.0, a close-delimited body), or bytes came that no request on the wire waits for (the stream is out
     *         of step with the requests: never reuse it)
     * @throws IOException a response that breaks HTTP/1.1's framing
     */
    public static <E extends Exchange> boolean read(ByteBuf in, OnWire<E> wire, long nowNanos) throws IOException {
        while (in.isReadable()) {
            E e = wire.awaiting();
            if (e == null) {
                return false;
            }
            e.byteReceived(nowNanos);
            ResponseFramer framer = wire.framer(e);
            if (!framer.feed(in)) {
                return true;
            }
            boolean reusable = framer.reusable();
            wire.completed(e, nowNanos);
            if (!reusable) {
                return false;
            }
        }
        return true;
    }

    /**
     * The one retry rule: the only request on a keep-alive connection that already carried a response, sent once,
     * with no response byte yet, met a close or a reset (the server dropped the idle connection as the request went
     * out). Such a request goes once more, on a new connection, as browsers do.
     *
     * @param alone whether no other request is on the wire behind it
     * @param requestsOnConnection the requests the connection carried, this one included
     * @param cause what ended it: null for a close, else the error
     */
    public static boolean mayRetry(Exchange e, ResponseFramer framer, boolean alone, int requestsOnConnection,
                                   Throwable cause) {
        return alone && requestsOnConnection > 1 && !framer.started() && !e.retried()
                && (cause == null || Failures.staleKeepAlive(cause));
    }
}
