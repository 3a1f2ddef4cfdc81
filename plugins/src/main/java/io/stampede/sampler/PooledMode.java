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
import org.apache.jmeter.samplers.SampleResult;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

/**
 * The classic mode on connections the users of the engine share (stampede.connection_sharing=engine): each sample
 * leases a depth-1 {@link Http1Connection} from the engine-wide {@link ConnectionPool} of its target, sends its one
 * request with this thread's {@link ParkingCompletion} as the exchange's queue, and gives the connection back when
 * the sample ends, so a user holds no connection while it thinks. Waiting for a lease counts in the elapsed time,
 * Latency and (when no connection is opened) Connect; a pool that stays full past the connect timeout fails the
 * sample with a PoolTimeoutException. Settings are read at every sample, as in {@link SingleConnectionMode}. The
 * encoded request is dropped after each sample too, and the filler's copy of the last response: a thinking user keeps
 * neither a connection nor request or response bytes of its own (the SampleResult JMeter keeps is JMeter's).
 */
final class PooledMode implements SamplingMode {
    private final StampedeSampler element;
    private final ResultFiller filler;
    private final int poolSize;
    /** Made on the owning thread (the mode is chosen in its first sample), which is the one that parks on it. */
    private final ParkingCompletion completion = new ParkingCompletion();
    private Target lastTarget;
    private String lastKey;

    PooledMode(StampedeSampler element, ResultFiller filler, int poolSize) {
        this.element = element;
        this.filler = filler;
        this.poolSize = poolSize;
    }

    @Override
    public SampleResult sample(SampleResult res) {
        SamplerSettings s;
        PreparedRequest req;
        InetSocketAddress remote;
        try {
            s = element.settings();
            req = element.request(s.target(), s.keepAlive());
            remote = s.target().resolve();
        } catch (IllegalArgumentException | UnknownHostException e) {
            return filler.notStarted(res, e);
        }
        long start = System.nanoTime();
        ConnectionPool<Http1Connection> pool = Engine.get().pool(key(s.target()), poolSize);
        boolean queued;
        try {
            queued = pool.lease(s.connectTimeout());
        } catch (IOException e) {
            return filler.notSent(res, start, e);
        }
        Http1Connection c = null;
        try {
            c = pool.idle();
            if (c == null) {
                Engine engine = Engine.get();
                c = new Http1Connection(engine, engine.nextLoop(), null, null, remote, null, s.connectTimeout(), 1,
                        s.target().tls());
            }
            // Only a wait in the pool's queue is reported (in Connect when no connection is opened); a GC pause
            // between start and a free lease is not a wait for a connection, as on a thread's own connection.
            long waited = queued ? System.nanoTime() - start : 0;
            Http1Exchange e = completion.send(c, req, s.responseBytesKept(), s.connectTimeout(), s.responseTimeout());
            filler.fill(res, e, start, waited);
            if (e.failed()) {
                // As with a thread's own connection, a failed one is not used again: the next user opens a new one.
                c.close();
                c = null;
            } else if (!s.keepAlive()) {
                c.closeChannel();
            }
        } finally {
            pool.release(c);
            element.forgetPrepared();
            filler.forgetLast();
        }
        return res;
    }

    /** The pool's key and name, "host:port" ("/tls" appended), kept while the target is unchanged. */
    private String key(Target t) {
        if (t != lastTarget) {
            lastKey = t.host() + ':' + t.port() + (t.secure() ? "/tls" : "");
            lastTarget = t;
        }
        return lastKey;
    }

    @Override
    public boolean interrupt() {
        completion.interrupt();
        return true;
    }

    /** Nothing to close: a lease ends with its sample, and the engine closes its pools at the test's end. */
    @Override
    public void close() {
        // nothing held between samples
    }
}
