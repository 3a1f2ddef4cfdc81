/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in compliance with
 * the License. You may obtain a copy of the License at http://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sampler;

import io.stampede.engine.Engine;
import io.stampede.engine.HttpConnection;
import io.stampede.engine.PreparedRequest;
import org.apache.jmeter.samplers.AbstractSampler;
import org.apache.jmeter.samplers.Entry;
import org.apache.jmeter.samplers.Interruptible;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testelement.TestStateListener;
import org.apache.jmeter.testelement.ThreadListener;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

/**
 * What both Stampede samplers share: target and timeout properties, the thread's keep-alive connections on the shared
 * engine, timing and result building. Subclasses only say which request bytes to send. Netty state is transient, so
 * the element serialises for jmeter-server like any other.
 */
public abstract class StampedeSampler extends AbstractSampler implements Interruptible, ThreadListener,
        TestStateListener {
    private static final long serialVersionUID = 1L;

    public static final String HOST = "stampede.host";
    public static final String PORT = "stampede.port";
    public static final String CONNECT_TIMEOUT = "stampede.connect_timeout";
    public static final String RESPONSE_TIMEOUT = "stampede.response_timeout";
    public static final String KEEP_ALIVE = "stampede.keep_alive";
    public static final String RESPONSE_BYTES_KEPT = "stampede.response_bytes_kept";

    public static final int DEFAULT_PORT = 80;
    public static final int DEFAULT_CONNECT_TIMEOUT = 5000;
    public static final int DEFAULT_RESPONSE_TIMEOUT = 30000;
    public static final int DEFAULT_RESPONSE_BYTES_KEPT = 65536;

    private transient volatile HttpConnection inFlight;
    private transient ThreadConnections connections;
    private transient ResultFiller filler;
    private transient PreparedRequest prepared;

    /**
     * The request for this sample. Implementations return the same instance while their (substituted) inputs are
     * unchanged, so an unchanged request is never re-encoded.
     *
     * @throws IllegalArgumentException naming the property and the fix when an input is unusable
     */
    protected abstract PreparedRequest request(String host, int port, boolean keepAlive);

    /** The request kept from an earlier sample, or null. */
    protected final PreparedRequest prepared() {
        return prepared;
    }

    /** Keeps {@code next} for the following samples and frees the one it replaces. */
    protected final void replacePrepared(PreparedRequest next) {
        if (prepared != null) {
            prepared.release();
        }
        prepared = next;
    }

    @Override
    public SampleResult sample(Entry entry) {
        SampleResult res = new SampleResult();
        res.setSampleLabel(getName());
        res.setDataType(SampleResult.TEXT);
        String host;
        int port;
        int connectTimeout;
        int responseTimeout;
        int kept;
        boolean keepAlive = getKeepAlive();
        PreparedRequest req;
        try {
            host = getHost();
            port = intProperty(PORT, DEFAULT_PORT, 1, 65535);
            connectTimeout = intProperty(CONNECT_TIMEOUT, DEFAULT_CONNECT_TIMEOUT, 1, Integer.MAX_VALUE / 1000);
            responseTimeout = intProperty(RESPONSE_TIMEOUT, DEFAULT_RESPONSE_TIMEOUT, 1, Integer.MAX_VALUE / 1000);
            kept = intProperty(RESPONSE_BYTES_KEPT, DEFAULT_RESPONSE_BYTES_KEPT, 0, Integer.MAX_VALUE - 8);
            req = request(host, port, keepAlive);
        } catch (IllegalArgumentException e) {
            res.sampleStart();
            res.sampleEnd();
            ResultFiller.fail(res, e);
            return res;
        }
        res.setURL(req.url());
        res.setSamplerData(req.text());
        if (connections == null) {
            connections = ThreadConnections.ofCurrentThread();
            filler = new ResultFiller();
        }
        res.sampleStart();
        long start = System.nanoTime();
        HttpConnection c = connections.get(host, port);
        try {
            c = send(res, req, c, host, port, connectTimeout, responseTimeout, kept, start);
        } catch (IOException e) {
            res.sampleEnd();
            ResultFiller.fail(res, e);
            return res;
        } finally {
            inFlight = null;
        }
        res.sampleEnd();
        res.setLatency((c.firstByteNanos() - start) / 1_000_000L);
        res.setSentBytes(req.length());
        filler.fill(res, c.response());
        if (!keepAlive || !c.reusable()) {
            connections.remove(host, port, c);
        }
        return res;
    }

    /**
     * Sends on the thread's connection, opening one when there is none. A kept connection that the server closed
     * while idle (keep-alive timeout, request limit) fails before any response byte; that one case is retried once
     * on a new connection, as a browser would.
     */
    private HttpConnection send(SampleResult res, PreparedRequest req, HttpConnection kept, String host, int port,
                                int connectTimeout, int responseTimeout, int keptBytes, long start)
            throws IOException {
        HttpConnection c = kept != null && !kept.reusable() ? drop(host, port, kept) : kept;
        for (int attempt = 0; ; attempt++) {
            boolean fresh = c == null;
            if (fresh) {
                c = HttpConnection.create(Engine.get());
                inFlight = c;
                try {
                    c.connect(resolve(host, port), connectTimeout);
                } catch (IOException e) {
                    c.close();
                    throw e;
                }
                res.setConnectTime((System.nanoTime() - start) / 1_000_000L);
                connections.put(host, port, c);
            }
            inFlight = c;
            try {
                c.exchange(req.retainedBytes(), req.head(), keptBytes, responseTimeout);
                return c;
            } catch (IOException e) {
                connections.remove(host, port, c);
                if (fresh || attempt > 0 || c.response().started() || !NonHttpFailure.staleConnection(e)) {
                    throw e;
                }
                c = null;
            }
        }
    }

    private HttpConnection drop(String host, int port, HttpConnection c) {
        connections.remove(host, port, c);
        return null;
    }

    private static InetSocketAddress resolve(String host, int port) throws UnknownHostException {
        InetSocketAddress a = new InetSocketAddress(host, port);
        if (a.isUnresolved()) {
            throw new UnknownHostException(host);
        }
        return a;
    }

    /** Stop-test-now: the sample in flight on this clone's thread fails at once and its connection is closed. */
    @Override
    public boolean interrupt() {
        HttpConnection c = inFlight;
        if (c != null) {
            c.interrupt();
        }
        return c != null;
    }

    @Override
    public void threadStarted() {
        // Connections open lazily at the first sample.
    }

    @Override
    public void threadFinished() {
        ThreadConnections.ofCurrentThread().closeAll();
        replacePrepared(null);
    }

    @Override
    public void testStarted() {
        // The engine starts lazily at the first sample.
    }

    @Override
    public void testStarted(String host) {
        testStarted();
    }

    @Override
    public void testEnded() {
        Engine.shutdown();
    }

    @Override
    public void testEnded(String host) {
        testEnded();
    }

    private int intProperty(String name, int dflt, int min, int max) {
        String v = getPropertyAsString(name).trim();
        if (v.isEmpty()) {
            return dflt;
        }
        int n;
        try {
            n = Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + ": '" + v + "' is not a whole number; enter one between "
                    + min + " and " + max + " (or leave it empty for " + dflt + ")");
        }
        if (n < min || n > max) {
            throw new IllegalArgumentException(name + ": " + n + " is out of range; enter one between " + min
                    + " and " + max + " (or leave it empty for " + dflt + ")");
        }
        return n;
    }

    public String getHost() {
        String h = getPropertyAsString(HOST).trim();
        if (h.isEmpty()) {
            throw new IllegalArgumentException(HOST + " is empty; enter the server's host name or IP address");
        }
        return h;
    }

    public void setHost(String host) {
        setProperty(HOST, host);
    }

    public void setPort(String port) {
        setProperty(PORT, port);
    }

    public void setConnectTimeout(String ms) {
        setProperty(CONNECT_TIMEOUT, ms);
    }

    public void setResponseTimeout(String ms) {
        setProperty(RESPONSE_TIMEOUT, ms);
    }

    public void setResponseBytesKept(String n) {
        setProperty(RESPONSE_BYTES_KEPT, n);
    }

    public boolean getKeepAlive() {
        return getPropertyAsBoolean(KEEP_ALIVE, true);
    }

    public void setKeepAlive(boolean keepAlive) {
        setProperty(KEEP_ALIVE, keepAlive);
    }
}
