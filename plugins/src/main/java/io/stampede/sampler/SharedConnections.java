/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sampler;

import io.stampede.engine.ConnectionPool;
import io.stampede.engine.Engine;
import io.stampede.engine.http1.Http1Connection;
import io.stampede.engine.http1.Http1Exchange;
import io.stampede.engine.http1.ParkingCompletion;
import io.stampede.engine.PreparedRequest;

import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * One user's way to the engine-wide connections ({@value ConnectionSharing#PROPERTY}{@code =engine}): each exchange
 * leases a depth-1 {@link Http1Connection} from the {@link ConnectionPool} of its target, sends one request with this
 * user's {@link ParkingCompletion}, hands the completed exchange to the caller while the lease is held (the
 * connection reuses its buffers for the next user), and gives the connection back. A user holds no connection between
 * exchanges, and no completion either: the one it parks on is made for the exchange (a few dozen bytes, where a user
 * thinking for seconds would keep it, per sampler, for the whole test).
 */
public final class SharedConnections {
    private final int poolSize;
    /** The exchange's completion while one is in progress, for {@link #interrupt} from another thread; else null. */
    private volatile ParkingCompletion inFlight;
    private Target lastTarget;
    private String lastKey;

    SharedConnections(int poolSize) {
        this.poolSize = poolSize;
    }

    /**
     * Shared connections when {@value ConnectionSharing#PROPERTY} is engine, else null (each thread keeps its own).
     *
     * @throws IllegalArgumentException when the sharing properties are not valid, naming the fix
     */
    public static SharedConnections ifConfigured() {
        ConnectionSharing sharing = ConnectionSharing.fromJMeterProperties();
        return sharing.engine() ? new SharedConnections(sharing.poolSize()) : null;
    }

    /** What the caller reads from a completed exchange before the connection goes back to the pool. */
    @FunctionalInterface
    public interface Reader<T> {
        /**
         * @param waitedNanos how long the user queued for the lease (0 when one was free at once)
         */
        T read(Http1Exchange e, long waitedNanos) throws IOException;
    }

    /**
     * One exchange on a leased connection to {@code target} at {@code remote}.
     *
     * @param keepAlive false: the connection's channel is closed after the exchange (it reconnects for the next user)
     * @throws IOException the pool stayed full for the connect timeout, or the wait was interrupted; or what
     *                     {@code reader} throws
     */
    public <T> T exchange(Target target, InetSocketAddress remote, PreparedRequest req, int kept, int connectTimeout,
                          int responseTimeout, boolean keepAlive, Reader<T> reader) throws IOException {
        long start = System.nanoTime();
        ConnectionPool<Http1Connection> pool = Engine.get().pool(key(target), poolSize);
        boolean queued = pool.lease(connectTimeout);
        Http1Connection c = null;
        try {
            c = pool.idle();
            if (c == null) {
                Engine engine = Engine.get();
                c = new Http1Connection(engine, engine.nextLoop(), null, null, remote, target.localAddress(),
                        connectTimeout, 1, target.tls());
            }
            // Only a wait in the pool's queue is reported (in Connect when no connection is opened); a GC pause
            // between start and a free lease is not a wait for a connection, as on a thread's own connection.
            long waited = queued ? System.nanoTime() - start : 0;
            ParkingCompletion completion = new ParkingCompletion();
            inFlight = completion;
            Http1Exchange e = completion.send(c, req, kept, connectTimeout, responseTimeout);
            T out = reader.read(e, waited);
            if (e.failed()) {
                // As with a thread's own connection, a failed one is not used again: the next user opens a new one.
                c.close();
                c = null;
            } else if (!keepAlive) {
                c.closeChannel();
            }
            return out;
        } finally {
            inFlight = null;
            pool.release(c);
        }
    }

    /** Whether an exchange's completion is held, for tests of what a user keeps between exchanges. */
    boolean holdsCompletion() {
        return inFlight != null;
    }

    /**
     * The pool's key and name, "host:port" ("/tls", "from" the local address appended), kept for an equal target; the
     * JVM's one copy of it, which every user's sampler clones keep rather than one each.
     */
    private String key(Target t) {
        if (t != lastTarget && !t.equals(lastTarget)) {
            lastKey = (t.host() + ':' + t.port() + (t.secure() ? "/tls" : "")
                    + (t.local() == null ? "" : " from " + t.local().getHostAddress())).intern();
            lastTarget = t;
        }
        return lastKey;
    }

    /** The pool key kept for the last target, for tests of what a user keeps. */
    String lastKey() {
        return lastKey;
    }

    /** Any thread (stop test now): the exchange in progress ends at once. */
    public void interrupt() {
        ParkingCompletion p = inFlight;
        if (p != null) {
            p.interrupt();
        }
    }
}
