/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.httprequest;

import io.netty.buffer.Unpooled;
import io.stampede.engine.Engine;
import io.stampede.engine.HttpConnection;
import io.stampede.engine.PrematureCloseException;
import io.stampede.engine.ResponseFramer;
import io.stampede.engine.Tls;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;

/**
 * The HTTP Request's only way into the Stampede engine: the keep-alive connections of one thread, one per target, and
 * one exchange at a time on them. Everything the sampler asks of the engine goes through here, so a change in the
 * engine's connection API changes this class only.
 *
 * <p>Per thread like stock's HttpClient 4 clients, and for the same reason held in a ThreadLocal rather than the
 * thread's JMeter variables: the parallel downloader of embedded resources runs clones of the sampler on pool threads
 * that share their parent's variables, and each pool thread must use connections of its own.
 */
final class EngineLink {
    private static final ThreadLocal<EngineLink> OF_THREAD = ThreadLocal.withInitial(EngineLink::new);
    /** JMeter's "no timeout" (0): long enough never to fire in a test, short enough not to overflow. */
    private static final int NO_TIMEOUT = Integer.MAX_VALUE / 4;

    private final Map<Target, HttpConnection> byTarget = new HashMap<>(4);
    private volatile HttpConnection current;
    private boolean closeBeforeNextSample;

    /**
     * Where a request goes: the URL's host (for TLS server name), the address looked up (DNS Cache Manager or the
     * system), the port, and whether it is https.
     */
    record Target(String host, InetAddress address, int port, boolean tls) {
    }

    /** One response, copied out of the engine: the engine reuses its buffers for the next exchange. */
    record Response(ResponseHead head, byte[] body, long headerBytes, long bodyBytes, long connectEndNanos,
                    long firstByteNanos, long endNanos) {
    }

    static EngineLink ofCurrentThread() {
        return OF_THREAD.get();
    }

    /**
     * Sends {@code request} to {@code target} on this thread's connection to it (opened now when there is none or it
     * cannot carry another request) and waits for the whole response. A request that meets a kept-alive connection
     * closed by the server before any response byte is sent once more on a new connection, as stock's client does.
     *
     * @param keepAlive false: the connection is closed after this exchange
     * @param connectTimeout JMeter's milliseconds, 0 for none
     * @param responseTimeout JMeter's milliseconds, 0 for none
     * @throws IOException the connect or exchange failure; the connection is then gone
     */
    Response exchange(Target target, byte[] request, boolean head, boolean keepAlive, int connectTimeout,
                      int responseTimeout) throws IOException {
        if (closeBeforeNextSample) {
            closeBeforeNextSample = false;
            closeAll();
        }
        HttpConnection c = byTarget.get(target);
        boolean reused = c != null && c.reusable();
        if (c != null && !reused) {
            drop(target, c);
            c = null;
        }
        long connectEnd = 0;
        if (c == null) {
            c = open(target, connectTimeout);
            connectEnd = System.nanoTime();
        }
        try {
            send(c, request, head, responseTimeout);
        } catch (PrematureCloseException e) {
            drop(target, c);
            if (!reused || c.response().started()) {
                throw e;
            }
            c = open(target, connectTimeout);
            connectEnd = System.nanoTime();
            try {
                send(c, request, head, responseTimeout);
            } catch (IOException again) {
                drop(target, c);
                throw again;
            }
        } catch (IOException e) {
            drop(target, c);
            throw e;
        }
        long end = System.nanoTime();
        ResponseFramer r = c.response();
        Response out = new Response(ResponseHead.parse(r.headerBlock(), r.headerBlockLength()), r.keptBody(),
                r.headerBytes(), r.bodyBytes(), connectEnd, c.firstByteNanos(), end);
        if (!keepAlive || !c.reusable()) {
            drop(target, c);
        }
        return out;
    }

    private HttpConnection open(Target target, int connectTimeout) throws IOException {
        HttpConnection c = HttpConnection.create(Engine.get());
        current = c;
        try {
            c.connect(new InetSocketAddress(target.address(), target.port()), timeout(connectTimeout),
                    target.tls() ? new Tls(target.host(), target.port(), true) : null);
        } catch (IOException e) {
            c.close();
            throw e;
        }
        byTarget.put(target, c);
        return c;
    }

    private void send(HttpConnection c, byte[] request, boolean head, int responseTimeout) throws IOException {
        current = c;
        c.exchange(Unpooled.wrappedBuffer(request), head, Integer.MAX_VALUE, timeout(responseTimeout));
    }

    private static int timeout(int jmeterMillis) {
        return jmeterMillis > 0 ? jmeterMillis : NO_TIMEOUT;
    }

    private void drop(Target target, HttpConnection c) {
        byTarget.remove(target, c);
        c.close();
    }

    /** The thread starts a new iteration as a new user: its connections are closed before its next request. */
    void closeBeforeNextSample() {
        closeBeforeNextSample = true;
    }

    /** Any thread (stop test now): the connect or exchange in progress ends at once. */
    boolean interrupt() {
        HttpConnection c = current;
        if (c != null) {
            c.interrupt();
        }
        return c != null;
    }

    /** Closes every connection of this thread; a later request opens new ones. */
    void closeAll() {
        for (HttpConnection c : new ArrayList<>(byTarget.values())) {
            c.close();
        }
        byTarget.clear();
        current = null;
    }

    /** The engine's threads and connections end with the test. */
    static void testEnded() {
        Engine.shutdown();
    }
}
