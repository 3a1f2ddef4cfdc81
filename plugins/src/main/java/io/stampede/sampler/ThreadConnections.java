/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sampler;

import io.stampede.engine.HttpConnection;
import org.apache.jmeter.threads.JMeterContext;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;

/**
 * The keep-alive connections of one JMeter thread, one per host:port and plain/TLS, shared by all Stampede samplers
 * of that thread and kept across thread-group iterations (like a browser user keeps its connections). Lives in the thread's
 * JMeterVariables, so it dies with the thread; only the owning thread touches it.
 */
final class ThreadConnections implements UserConnections {
    private static final String KEY = ThreadConnections.class.getName();

    private final Map<String, HttpConnection> byTarget = new HashMap<>(4);
    private String lastHost;
    private int lastPort;
    private boolean lastTls;
    private HttpConnection last;

    static ThreadConnections ofCurrentThread() {
        // The thread's variables, not its sampler context: JMeter clears the sampler context after every sample.
        JMeterContext context = JMeterContextService.getContext();
        JMeterVariables vars = context.getVariables();
        if (vars == null) {
            // Only outside a JMeter thread (a sampler driven directly); JMeterThread always sets them.
            vars = new JMeterVariables();
            context.setVariables(vars);
        }
        if (vars.getObject(KEY) instanceof ThreadConnections tc) {
            return tc;
        }
        ThreadConnections tc = new ThreadConnections();
        vars.putObject(KEY, tc);
        return tc;
    }

    @Override
    public HttpConnection get(String host, int port, boolean tls, int connectTimeoutMillis) {
        return get(host, port, tls);
    }

    /** A thread's own connection is never waited for. */
    @Override
    public long waitedNanos() {
        return 0;
    }

    /** The connection stays with the thread for its next sample. */
    @Override
    public void done(HttpConnection c) {
        // nothing to give back
    }

    /** The open connection to host:port, or null. The last target is remembered so the usual case needs no key. */
    HttpConnection get(String host, int port, boolean tls) {
        if (last != null && port == lastPort && tls == lastTls && host.equals(lastHost)) {
            return last;
        }
        HttpConnection c = byTarget.get(key(host, port, tls));
        if (c != null) {
            remember(host, port, tls, c);
        }
        return c;
    }

    @Override
    public void put(String host, int port, boolean tls, HttpConnection c) {
        HttpConnection old = byTarget.put(key(host, port, tls), c);
        if (old != null && old != c) {
            old.close();
        }
        remember(host, port, tls, c);
    }

    @Override
    public void remove(String host, int port, boolean tls, HttpConnection c) {
        byTarget.remove(key(host, port, tls), c);
        if (last == c) {
            remember(null, 0, false, null);
        }
        c.close();
    }

    /** Closes every connection; the holder stays usable (a later sample on this thread opens new ones). */
    @Override
    public void closeAll() {
        for (HttpConnection c : new ArrayList<>(byTarget.values())) {
            c.close();
        }
        byTarget.clear();
        remember(null, 0, false, null);
    }

    private void remember(String host, int port, boolean tls, HttpConnection c) {
        lastHost = host;
        lastPort = port;
        lastTls = tls;
        last = c;
    }

    private static String key(String host, int port, boolean tls) {
        return host + ':' + port + (tls ? "/tls" : "");
    }
}
