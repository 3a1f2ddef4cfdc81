/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.httprequest;

import io.stampede.engine.Engine;
import io.stampede.names.PluginNames;
import io.stampede.engine.Failures;
import io.stampede.engine.Exchange;
import io.stampede.engine.http1.Http1Connection;
import io.stampede.engine.http2.Http2Exchange;
import io.stampede.engine.http2.Http2Group;
import io.stampede.engine.http2.Http2Options;
import io.stampede.engine.http2.Http2Request;
import io.stampede.engine.PreparedRequest;
import io.stampede.engine.ReceivedResponse;
import io.stampede.sampler.SharedConnections;
import io.stampede.sampler.StampedeVariables;
import io.stampede.sampler.Target;
import io.stampede.sampler.ThreadConnections;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.HashSet;
import java.util.Set;

/**
 * The HTTP Request's only way into the Stampede engine, on the Stampede samplers' seam: the thread's connections
 * ({@link ThreadConnections}: one per target, the thread's own blocking I/O for plain HTTP unless
 * {@code stampede.io_mode} is engine, else a depth-1 connection on an event loop, and HTTP/2's one connection per
 * target), or, with {@code stampede.connection_sharing=engine}, a connection leased per exchange from the engine-wide
 * pool of the target ({@link SharedConnections}), and the {@code stampede_*} variables ({@link StampedeVariables}).
 *
 * <p>Per Java thread, like stock's HttpClient 4 clients, and for the same reason held in a ThreadLocal rather than
 * the thread's JMeter variables: the parallel downloader of embedded resources runs clones of the sampler on pool
 * threads that share their parent's variables, and each pool thread must use connections of its own.
 */
final class EngineLink {
    private static final Logger LOG = LoggerFactory.getLogger(EngineLink.class);
    private static final ThreadLocal<EngineLink> OF_THREAD = new ThreadLocal<>();
    /** JMeter's "no timeout" (0): long enough never to fire in a test, short enough not to overflow. */
    private static final int NO_TIMEOUT = Integer.MAX_VALUE / 4;

    private final ThreadConnections own = ThreadConnections.create();
    /** Null unless the test shares connections engine-wide (HTTP/1.1; HTTP/2 stays on the thread's own). */
    private final SharedConnections shared = SharedConnections.ifConfigured();
    private final StampedeVariables variables = StampedeVariables.fromJMeterProperties();
    private final RequestTargets targets = new RequestTargets();
    /** Targets whose ALPN fallback to HTTP/1.1 this thread noted in jmeter.log already. */
    private final Set<Target> fallbackNoted = new HashSet<>(2);
    private boolean closeBeforeNextSample;

    private EngineLink() {
    }

    /**
     * This thread's link, made at its first sample.
     *
     * @throws IllegalArgumentException when stampede.io_mode or stampede.connection_sharing is not valid, naming the
     *                                  fix (then every sample says so, none is sent)
     */
    static EngineLink ofCurrentThread() {
        EngineLink l = OF_THREAD.get();
        if (l == null) {
            l = new EngineLink();
            OF_THREAD.set(l);
        }
        return l;
    }

    /** The thread ends: its connections are closed and its link dropped (a virtual user's thread holds none). */
    static void closeCurrentThread() {
        EngineLink l = OF_THREAD.get();
        if (l != null) {
            l.closeAll();
            OF_THREAD.remove();
        }
    }

    /** The request-targets of the URLs this thread sent to lately. */
    RequestTargets targets() {
        return targets;
    }

    /** The stampede_* variables sample_variables asks for. */
    StampedeVariables variables() {
        return variables;
    }

    /**
     * Sends {@code request} to {@code target} at {@code address} and parks until the whole response is in. A
     * connection (re)connects by itself when its channel is closed, and a request that meets a kept-alive connection
     * closed by the server before any response byte is sent once more on a new one (the engine's one retry rule, as
     * stock's client does after its stale-connection check).
     *
     * @param keepAlive false: the connection is closed after this exchange
     * @param keep the most body bytes to keep (the rest is counted, not kept)
     * @param connectTimeout JMeter's milliseconds, 0 for none
     * @param responseTimeout JMeter's milliseconds, 0 for none
     * @throws IOException the connect or exchange failure, as the engine names it
     */
    EngineResponse exchange(Target target, InetAddress address, byte[] request, boolean head, boolean keepAlive,
                            int keep, int connectTimeout, int responseTimeout) throws IOException {
        closeIfNewUser();
        InetSocketAddress remote = new InetSocketAddress(address, target.port());
        PreparedRequest req = PreparedRequest.ofBytes(request, head, null);
        try {
            if (shared != null) {
                return shared.exchange(target, remote, req, keep, timeout(connectTimeout), timeout(responseTimeout),
                        keepAlive, (e, waited) -> response(e));
            }
            Exchange e;
            Runnable close;
            if (own.ownsIo(target)) {
                var c = own.own(target, remote);
                e = c.send(req, keep, timeout(connectTimeout), timeout(responseTimeout));
                close = c::closeChannel;
            } else {
                Http1Connection c = own.get(target, remote, timeout(connectTimeout));
                e = own.completion().send(c, req, keep, timeout(connectTimeout), timeout(responseTimeout));
                close = c::closeChannel;
            }
            if (e.failed()) {
                own.discard(target);
            }
            EngineResponse out = response(e);
            if (!keepAlive) {
                // The request asked the server to close; if it did not, close here so the next one connects anew.
                close.run();
            }
            return out;
        } finally {
            req.release();
        }
    }

    private static EngineResponse response(Exchange e) throws IOException {
        if (e.failed()) {
            throw e.failure();
        }
        ReceivedResponse r = e.response();
        return new EngineResponse(ResponseHead.parse(r.headerBlock(), r.headerBlockLength()), r.keptBody(),
                r.bodyCut(), r.headerBytes(), r.bodyBytes(), e.connectNanos() > 0 ? e.startNanos() + e.connectNanos()
                : 0, e.firstByteNanos(), e.doneNanos());
    }

    /**
     * Sends {@code request} as one HTTP/2 stream on this thread's connection to {@code target} (h2: TLS with ALPN,
     * h2c: cleartext) and parks until the whole response is in. One stream at a time, since a thread's samples
     * follow each other: one user, one connection, kept as HTTP/1.1's is. A server that does not choose h2 in ALPN
     * gets the request as HTTP/1.1 on that connection; this thread notes it once per target in jmeter.log.
     * {@code request}'s HTTP/1.1 form is released here, once no send can still use it.
     *
     * @param options the connection's window and requests per connection: other options than the open
     *                connection's close it and open a new one
     * @param keep the most body bytes to keep (the rest is counted, not kept)
     * @throws IOException the connect or exchange failure, as the engine names it (GOAWAY, RST_STREAM included)
     */
    EngineResponse exchange(Target target, InetAddress address, Http2Request request, Http2Options options,
                            boolean keepAlive, int keep, int connectTimeout, int responseTimeout) throws IOException {
        boolean release = true;
        try {
            closeIfNewUser();
            Http2Group g = own.http2(target, new InetSocketAddress(address, target.port()), options,
                    timeout(connectTimeout));
            Http2Exchange e = g.next(request, keep, timeout(responseTimeout));
            if (e == null) {
                release = false; // still armed: the event loop may send it yet
                throw Failures.interrupted();
            }
            if (e.failed()) {
                throw e.failure();
            }
            ReceivedResponse r = e.response();
            ResponseHead head = ResponseHead.parse(r.headerBlock(), r.headerBlockLength());
            if (e.negotiated().equals(PluginNames.ALPN_FALLBACK)) {
                if (fallbackNoted.add(target)) {
                    LOG.info("HTTP Request: the server at {}:{} did not choose h2 in ALPN; this thread's connection to "
                            + "it speaks HTTP/1.1 (a note, not an error: see the response headers' first line)",
                            target.host(), target.port());
                }
            } else {
                head = head.http2(r.reason());
            }
            EngineResponse out = new EngineResponse(head, r.keptBody(), r.bodyCut(), r.headerBytes(), r.bodyBytes(),
                    e.connectNanos() > 0 ? e.startNanos() + e.connectNanos() : 0, e.firstByteNanos(), e.doneNanos(),
                    e.sentBytes(), e.negotiated());
            if (!keepAlive) {
                // "Use KeepAlive" off: HTTP/2 has no Connection field, so the connection is closed here instead.
                own.closeHttp2(target);
            }
            return out;
        } finally {
            if (release) {
                request.http1().release();
            }
        }
    }

    private void closeIfNewUser() {
        if (closeBeforeNextSample) {
            closeBeforeNextSample = false;
            closeAll();
        }
    }

    private static int timeout(int jmeterMillis) {
        return jmeterMillis > 0 ? jmeterMillis : NO_TIMEOUT;
    }

    /** The thread starts a new iteration as a new user: its connections are closed before its next request. */
    void closeBeforeNextSample() {
        closeBeforeNextSample = true;
    }

    /** Any thread (stop test now): the connect or exchange in progress ends at once. */
    boolean interrupt() {
        own.interrupt();
        if (shared != null) {
            shared.interrupt();
        }
        return true;
    }

    /** Closes every connection of this thread; a later request opens new ones. */
    void closeAll() {
        own.closeAll();
    }

    /** The engine's threads and connections end with the test. */
    static void testEnded() {
        Engine.shutdown();
    }
}
