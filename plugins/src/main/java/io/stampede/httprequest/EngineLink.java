/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.httprequest;

import io.stampede.engine.Engine;
import io.stampede.engine.http1.Http1Exchange;
import io.stampede.engine.http1.Http1Connection;
import io.stampede.engine.http2.Http2Exchange;
import io.stampede.engine.http2.Http2Group;
import io.stampede.engine.http2.Http2Options;
import io.stampede.engine.http2.Http2Request;
import io.stampede.engine.HttpProtocol;
import io.stampede.engine.http1.ParkingCompletion;
import io.stampede.engine.PreparedRequest;
import io.stampede.engine.ReceivedResponse;
import io.stampede.engine.http1.ResponseFramer;
import io.stampede.engine.http1.ThreadIoConnection;
import io.stampede.engine.tls.Tls;
import io.stampede.names.PluginNames;
import org.apache.jmeter.util.JMeterUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The HTTP Request's only way into the Stampede engine: the keep-alive connections of one thread, one per target, and
 * one exchange at a time on them. Everything the sampler asks of the engine goes through here, so a change in the
 * engine's connection API changes this class only.
 *
 * <p>Plain HTTP without a source address is read and written by the JMeter thread itself with blocking socket calls
 * ({@link ThreadIoConnection}, as the classic HTTP Sampler does, and as stock's HttpClient 4 does): no hand-off to an
 * event loop and back per sample. Over TLS, with an "IP source address", or with {@code -Jstampede.io_mode=engine}
 * the sample goes to a depth-1 {@link Http1Connection} on the engine's event loop and the thread parks meanwhile.
 *
 * <p>Per thread like stock's HttpClient 4 clients, and for the same reason held in a ThreadLocal rather than the
 * thread's JMeter variables: the parallel downloader of embedded resources runs clones of the sampler on pool threads
 * that share their parent's variables, and each pool thread must use connections of its own.
 */
final class EngineLink {
    private static final Logger LOG = LoggerFactory.getLogger(EngineLink.class);
    private static final ThreadLocal<EngineLink> OF_THREAD = ThreadLocal.withInitial(EngineLink::new);
    /** JMeter's "no timeout" (0): long enough never to fire in a test, short enough not to overflow. */
    private static final int NO_TIMEOUT = Integer.MAX_VALUE / 4;

    /** Whether plain-HTTP targets use the thread's own I/O: unless {@code stampede.io_mode} is engine. */
    private final boolean threadIo = !"engine".equals(JMeterUtils.getPropDefault(PluginNames.IO_MODE, "")
            .trim().toLowerCase(Locale.ROOT));
    private final Map<Target, ThreadIoConnection> ownIo = new HashMap<>(4);
    private final Map<Target, Http1Connection> byTarget = new HashMap<>(4);
    /** The own-I/O connection a send is on now, for {@link #interrupt()} from another thread. */
    private volatile ThreadIoConnection sending;
    /** The last own-I/O target and its connection: a thread usually sends to one target after another. */
    private Target lastTarget;
    private ThreadIoConnection lastConnection;
    /** The classic mode's completion: the thread parks on it for each exchange, on whichever connection. */
    private final ParkingCompletion completion = new ParkingCompletion();
    private boolean closeBeforeNextSample;
    private final RequestTargets targets = new RequestTargets();
    /** HTTP/2 (h2, h2c): one connection of one stream per target, as HTTP/1.1's one connection per target. */
    private final Map<Target, Http2Group> http2ByTarget = new HashMap<>(4);
    /** The HTTP/2 connection a sample waits on now, for {@link #interrupt()} from another thread. */
    private volatile Http2Group http2Sending;
    /** Targets whose ALPN fallback to HTTP/1.1 this thread noted in jmeter.log already. */
    private final Set<Target> fallbackNoted = new HashSet<>(2);
    /** Whether samples set the JMeter variable stampede_protocol (only when sample_variables names it). */
    private final boolean protocolVariable = Arrays.asList(JMeterUtils.getPropDefault("sample_variables", "")
            .split("\\s*,\\s*")).contains(EngineSample.PROTOCOL_VARIABLE);

    /**
     * Where a request goes: the URL's host (for the TLS server name), the address looked up (DNS Cache Manager or
     * the system), the port, whether it is https, and the source address ("IP source address"; null: the kernel's).
     */
    record Target(String host, InetAddress address, int port, boolean tls, InetAddress local) {
        // Written out: the generated ones go through a method handle each call, and one Target is compared per sample.
        @Override
        public boolean equals(Object o) {
            return o instanceof Target t && port == t.port && tls == t.tls && host.equals(t.host)
                    && address.equals(t.address) && Objects.equals(local, t.local);
        }

        @Override
        public int hashCode() {
            return (host.hashCode() * 31 + address.hashCode()) * 31 + port;
        }
    }

    /**
     * One response, copied out of the engine: the engine reuses its buffers for the next exchange.
     *
     * @param sentBytes the bytes sent (HTTP/2: header block and DATA), -1 for the HTTP/1.1 request's own length
     * @param protocol what carried it: http/1.1, h2, h2c or {@link PluginNames#ALPN_FALLBACK}
     */
    record Response(ResponseHead head, byte[] body, boolean bodyCut, long headerBytes, long bodyBytes,
                    long connectEndNanos, long firstByteNanos, long endNanos, long sentBytes, String protocol) {
        Response(ResponseHead head, byte[] body, boolean bodyCut, long headerBytes, long bodyBytes,
                 long connectEndNanos, long firstByteNanos, long endNanos) {
            this(head, body, bodyCut, headerBytes, bodyBytes, connectEndNanos, firstByteNanos, endNanos, -1,
                    HttpProtocol.HTTP_1_1.id());
        }
    }

    static EngineLink ofCurrentThread() {
        return OF_THREAD.get();
    }

    /** The request-targets of the URLs this thread sent to lately. */
    RequestTargets targets() {
        return targets;
    }

    /**
     * Sends {@code request} to {@code target} on this thread's connection to it and parks until the whole response
     * is in. The connection (re)connects by itself when its channel is closed, and a request that meets a kept-alive
     * connection closed by the server before any response byte is sent once more on a new one (the engine's one
     * retry rule, as stock's client does after its stale-connection check).
     *
     * @param keepAlive false: the connection is closed after this exchange
     * @param keep the most body bytes to keep (the rest is counted, not kept)
     * @param connectTimeout JMeter's milliseconds, 0 for none
     * @param responseTimeout JMeter's milliseconds, 0 for none
     * @throws IOException the connect or exchange failure, as the engine names it
     */
    Response exchange(Target target, byte[] request, boolean head, boolean keepAlive, int keep, int connectTimeout,
                      int responseTimeout) throws IOException {
        if (closeBeforeNextSample) {
            closeBeforeNextSample = false;
            closeAll();
        }
        PreparedRequest req = PreparedRequest.ofBytes(request, head, null);
        try {
            Http1Exchange e;
            ThreadIoConnection own = null;
            Http1Connection onLoop = null;
            if (threadIo && !target.tls() && target.local() == null) {
                own = ownConnection(target);
                sending = own;
                try {
                    e = own.send(req, keep, timeout(connectTimeout), timeout(responseTimeout));
                } finally {
                    sending = null;
                }
            } else {
                onLoop = connection(target, connectTimeout);
                e = completion.send(onLoop, req, keep, timeout(connectTimeout),
                        timeout(responseTimeout));
            }
            if (e.failed()) {
                throw e.failure();
            }
            ResponseFramer r = e.response();
            Response out = new Response(ResponseHead.parse(r.headerBlock(), r.headerBlockLength()), r.keptBody(),
                    r.bodyCut(), r.headerBytes(), r.bodyBytes(), e.connectNanos() > 0 ? e.startNanos() + e.connectNanos() : 0,
                    e.firstByteNanos(), e.doneNanos());
            if (!keepAlive) {
                // The request asked the server to close; if it did not, close here so the next one connects anew.
                if (own != null) {
                    own.closeChannel();
                } else {
                    onLoop.closeChannel();
                }
            }
            return out;
        } finally {
            req.release();
        }
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
    Response exchange(Target target, Http2Request request, Http2Options options, boolean keepAlive, int keep,
                      int connectTimeout, int responseTimeout) throws IOException {
        boolean release = true;
        try {
            if (closeBeforeNextSample) {
                closeBeforeNextSample = false;
                closeAll();
            }
            Http2Group g = http2ByTarget.get(target);
            if (g == null || !g.usable() || !g.options().equals(options)) {
                g = new Http2Group(Engine.get(), new InetSocketAddress(target.address(), target.port()),
                        target.local() == null ? null : new InetSocketAddress(target.local(), 0),
                        target.tls() ? new Tls(target.host(), target.port(), true) : null, options, 1, 1,
                        timeout(connectTimeout), false);
                Http2Group old = http2ByTarget.put(target, g);
                if (old != null) {
                    old.close();
                }
            }
            Http2Exchange e;
            http2Sending = g;
            try {
                e = g.next(request, keep, timeout(responseTimeout));
            } finally {
                http2Sending = null;
            }
            if (e == null) {
                release = false; // still armed: the event loop may send it yet
                throw new InterruptedIOException("Sample interrupted (test stopped)");
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
            Response out = new Response(head, r.keptBody(), r.bodyCut(), r.headerBytes(), r.bodyBytes(),
                    e.connectNanos() > 0 ? e.startNanos() + e.connectNanos() : 0, e.firstByteNanos(), e.doneNanos(),
                    e.sentBytes(), e.negotiated());
            if (!keepAlive) {
                // "Use KeepAlive" off: HTTP/2 has no Connection field, so the connection is closed here instead.
                http2ByTarget.remove(target).close();
            }
            return out;
        } finally {
            if (release) {
                request.http1().release();
            }
        }
    }

    /** Whether samples set the JMeter variable {@link EngineSample#PROTOCOL_VARIABLE}. */
    boolean protocolVariable() {
        return protocolVariable;
    }

    private ThreadIoConnection ownConnection(Target target) {
        ThreadIoConnection c = target.equals(lastTarget) ? lastConnection : ownIo.get(target);
        if (c == null || !c.usable()) {
            if (c != null) {
                c.closeChannel();
            }
            c = new ThreadIoConnection(Engine.get(), new InetSocketAddress(target.address(), target.port()));
            ownIo.put(target, c);
        }
        lastTarget = target;
        lastConnection = c;
        return c;
    }

    private Http1Connection connection(Target target, int connectTimeout) {
        Http1Connection c = byTarget.get(target);
        if (c == null || !c.usable()) {
            Engine engine = Engine.get();
            c = new Http1Connection(engine, engine.nextLoop(), null, null,
                    new InetSocketAddress(target.address(), target.port()),
                    target.local() == null ? null : new InetSocketAddress(target.local(), 0), timeout(connectTimeout),
                    1, target.tls() ? new Tls(target.host(), target.port(), true) : null);
            Http1Connection old = byTarget.put(target, c);
            if (old != null) {
                old.close();
            }
        }
        return c;
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
        ThreadIoConnection own = sending;
        if (own != null) {
            own.interrupt();
        }
        completion.interrupt();
        Http2Group h2 = http2Sending;
        if (h2 != null) {
            h2.interrupt();
        }
        return true;
    }

    /** Closes every connection of this thread; a later request opens new ones. */
    void closeAll() {
        for (Http1Connection c : new ArrayList<>(byTarget.values())) {
            c.close();
        }
        byTarget.clear();
        for (ThreadIoConnection c : ownIo.values()) {
            c.closeChannel();
        }
        ownIo.clear();
        for (Http2Group g : http2ByTarget.values()) {
            g.close();
        }
        http2ByTarget.clear();
        lastTarget = null;
        lastConnection = null;
    }

    /** The engine's threads and connections end with the test. */
    static void testEnded() {
        Engine.shutdown();
    }
}
