/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sampler;

import io.stampede.engine.ConnectionPool;
import io.stampede.engine.Engine;
import io.stampede.engine.HttpConnection;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;

import java.io.IOException;

/**
 * One JMeter thread's view of the engine-wide pools: a lease per sample, given back when the sample ends, so a
 * user holds no connection while it thinks. Lives in the thread's JMeterVariables like {@link ThreadConnections}.
 */
final class PooledConnections implements UserConnections {
    private static final String KEY = PooledConnections.class.getName();

    private final int poolSize;
    private ConnectionPool leased;
    private HttpConnection current;
    private long waitedNanos;
    private String lastTarget;
    private String lastHost;
    private int lastPort;
    private boolean lastTls;

    private PooledConnections(int poolSize) {
        this.poolSize = poolSize;
    }

    static PooledConnections ofCurrentThread(int poolSize) {
        JMeterVariables vars = JMeterContextService.getContext().getVariables();
        if (vars == null) {
            vars = new JMeterVariables();
            JMeterContextService.getContext().setVariables(vars);
        }
        if (vars.getObject(KEY) instanceof PooledConnections pc) {
            return pc;
        }
        PooledConnections pc = new PooledConnections(poolSize);
        vars.putObject(KEY, pc);
        return pc;
    }

    @Override
    public HttpConnection get(String host, int port, boolean tls, int connectTimeoutMillis) throws IOException {
        done(current); // a lease never outlives its sample, even when the sample ended early
        long start = System.nanoTime();
        ConnectionPool pool = Engine.get().pool(target(host, port, tls), poolSize);
        pool.lease(connectTimeoutMillis);
        leased = pool;
        waitedNanos = System.nanoTime() - start;
        current = pool.idle();
        return current;
    }

    /** The pool key, remembered for the usual case of one target so a sample builds no string. */
    private String target(String host, int port, boolean tls) {
        if (lastTarget == null || port != lastPort || tls != lastTls || !host.equals(lastHost)) {
            lastTarget = host + ':' + port + (tls ? "/tls" : "");
            lastHost = host;
            lastPort = port;
            lastTls = tls;
        }
        return lastTarget;
    }

    @Override
    public long waitedNanos() {
        return waitedNanos;
    }

    @Override
    public void put(String host, int port, boolean tls, HttpConnection c) {
        current = c;
    }

    @Override
    public void remove(String host, int port, boolean tls, HttpConnection c) {
        c.close();
        if (current == c) {
            current = null;
        }
    }

    @Override
    public void done(HttpConnection c) {
        ConnectionPool pool = leased;
        if (pool != null) {
            leased = null;
            current = null;
            pool.release(c);
        }
    }

    @Override
    public void closeAll() {
        HttpConnection c = current;
        done(null);
        if (c != null) {
            c.close();
        }
    }
}
