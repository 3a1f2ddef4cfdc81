/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sampler;

import io.stampede.engine.Engine;
import io.stampede.engine.http1.Http1Connection;
import io.stampede.engine.http2.Http2Group;
import io.stampede.engine.http2.Http2Options;
import io.stampede.engine.http1.ThreadIoConnection;
import io.stampede.engine.http1.ParkingCompletion;
import io.stampede.sessions.UserSessions;

import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;

/**
 * The classic mode's connections of one JMeter thread: one per target, shared by all Stampede samplers of that
 * thread and kept across thread-group iterations (like a browser user keeps its connections), with the one
 * {@link ParkingCompletion} the thread waits on. Lives in the thread's JMeterVariables, so it dies with the thread;
 * only the owning thread touches it, except {@link #interrupt()}. JMeter's HTTP Request keeps one per thread of its
 * own ({@link #create()}), since the parallel downloader's pool threads share their parent's variables; it also keeps
 * its HTTP/2 connections here, one group of one connection per target.
 */
public final class ThreadConnections {
    private final Map<Target, Http1Connection> byTarget = new HashMap<>(4);
    /** Plain-TCP connections the thread reads and writes itself (stampede.io_mode auto or thread). */
    private final Map<Target, ThreadIoConnection> ownIo = new HashMap<>(4);
    /** Read when the thread's connections are made, and again when they are all closed. */
    private boolean threadIo = IoMode.fromJMeterProperties() != IoMode.ENGINE;
    private Target lastOwnTarget;
    private ThreadIoConnection lastOwn;
    private volatile ThreadIoConnection inFlight;
    private final ParkingCompletion completion = new ParkingCompletion();
    private Target lastTarget;
    private Http1Connection last;
    private final Map<Target, Http2Group> http2 = new HashMap<>(2);
    private volatile Http2Group http2InFlight;

    private ThreadConnections() {
    }

    /**
     * A holder not kept in the thread's variables, for a caller that keeps it per Java thread itself.
     *
     * @throws IllegalArgumentException when {@value IoMode#PROPERTY} is not an I/O mode, naming the fix
     */
    public static ThreadConnections create() {
        return new ThreadConnections();
    }

    static ThreadConnections ofCurrentThread() {
        return UserSessions.kept(ThreadConnections.class, ThreadConnections::new);
    }

    public ParkingCompletion completion() {
        return completion;
    }

    /**
     * The thread's connection to {@code target}, made when there is none or the engine it was made on has stopped
     * (a test ended). It (re)connects by itself when its request goes out.
     */
    Http1Connection get(Target target, int connectTimeout) throws UnknownHostException {
        return get(target, null, connectTimeout);
    }

    /**
     * As {@link #get(Target, int)}, connecting a new connection to {@code remote} (null: the target's host looked up
     * now), from the target's local address.
     */
    public Http1Connection get(Target target, InetSocketAddress remote, int connectTimeout)
            throws UnknownHostException {
        Http1Connection c = last;
        if (c == null || target != lastTarget && !target.equals(lastTarget)) {
            c = byTarget.get(target);
        }
        if (c == null || !c.usable()) {
            Engine engine = Engine.get();
            c = new Http1Connection(engine, engine.nextLoop(), null, null, remote != null ? remote : target.resolve(),
                    target.localAddress(), connectTimeout, 1, target.tls());
            Http1Connection old = byTarget.put(target, c);
            if (old != null) {
                old.close();
            }
        }
        lastTarget = target;
        last = c;
        return c;
    }

    /**
     * Whether this thread does the I/O to {@code target} itself: plain TCP unless stampede.io_mode is engine. TLS
     * stays on the engine's loops (its handshake and records are Netty's).
     */
    public boolean ownsIo(Target target) {
        return threadIo && !target.secure() && target.local() == null;
    }

    /** The thread's own-I/O connection to a plain {@code target}; it connects when its first request goes out. */
    ThreadIoConnection own(Target target) throws UnknownHostException {
        return own(target, null);
    }

    /** As {@link #own(Target)}, connecting a new connection to {@code remote} (null: the target's host now). */
    public ThreadIoConnection own(Target target, InetSocketAddress remote) throws UnknownHostException {
        ThreadIoConnection c = lastOwn;
        if (c == null || target != lastOwnTarget && !target.equals(lastOwnTarget)) {
            c = ownIo.get(target);
        }
        if (c == null || !c.usable()) {
            if (c != null) {
                c.closeChannel();
            }
            c = new ThreadIoConnection(Engine.get(), remote != null ? remote : target.resolve());
            ownIo.put(target, c);
        }
        lastOwnTarget = target;
        lastOwn = c;
        inFlight = c;
        return c;
    }

    /**
     * The thread's HTTP/2 connection to {@code target} (one connection, one stream at a time), made anew when there
     * is none, it is no longer usable, or it was made with other {@code options}.
     */
    public Http2Group http2(Target target, InetSocketAddress remote, Http2Options options, int connectTimeout) {
        Http2Group g = http2.get(target);
        if (g == null || !g.usable() || !g.options().equals(options)) {
            g = new Http2Group(Engine.get(), remote, target.localAddress(), target.tls(), options, 1, 1,
                    connectTimeout, false);
            Http2Group old = http2.put(target, g);
            if (old != null) {
                old.close();
            }
        }
        http2InFlight = g;
        return g;
    }

    /** Closes the thread's HTTP/2 connection to {@code target} ("Use KeepAlive" off: HTTP/2 has no Connection field). */
    public void closeHttp2(Target target) {
        Http2Group g = http2.remove(target);
        if (g != null) {
            g.close();
        }
    }

    /** Any thread (stop test now): the thread's send in progress ends at once. */
    public void interrupt() {
        completion.interrupt();
        ThreadIoConnection c = inFlight;
        if (c != null) {
            c.interrupt();
        }
        Http2Group g = http2InFlight;
        if (g != null) {
            g.interrupt();
        }
    }

    /**
     * Drops the thread's HTTP/1.1 connections to {@code target} after a failed exchange: the next request opens new
     * ones. A failed download leaves its partial body in the connection's framer until that connection's next
     * request, which may never come (a user that fetched a large file once); dropping the connection frees it now.
     */
    public void discard(Target target) {
        Http1Connection c = byTarget.remove(target);
        if (c != null) {
            c.close();
        }
        ThreadIoConnection own = ownIo.remove(target);
        if (own != null) {
            own.closeChannel();
        }
        if (target.equals(lastTarget)) {
            lastTarget = null;
            last = null;
        }
        if (target.equals(lastOwnTarget)) {
            lastOwnTarget = null;
            lastOwn = null;
        }
    }

    /** Closes every connection; the holder stays usable (a later sample on this thread opens new ones). */
    public void closeAll() {
        for (Http1Connection c : new ArrayList<>(byTarget.values())) {
            c.close();
        }
        byTarget.clear();
        lastTarget = null;
        last = null;
        for (ThreadIoConnection c : ownIo.values()) {
            c.closeChannel();
        }
        ownIo.clear();
        lastOwnTarget = null;
        lastOwn = null;
        inFlight = null;
        for (Http2Group g : http2.values()) {
            g.close();
        }
        http2.clear();
        http2InFlight = null;
        threadIo = IoMode.fromJMeterProperties() != IoMode.ENGINE;
    }
}
