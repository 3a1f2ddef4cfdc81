/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sampler;

import io.stampede.engine.Engine;
import io.stampede.engine.Exchange;
import io.stampede.engine.HttpConnection;
import io.stampede.engine.PreparedRequest;
import io.stampede.engine.Tls;
import org.apache.jmeter.samplers.AbstractSampler;
import org.apache.jmeter.samplers.Entry;
import org.apache.jmeter.samplers.Interruptible;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testelement.TestStateListener;
import org.apache.jmeter.testelement.ThreadListener;
import org.apache.jmeter.threads.JMeterContextService;

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
    public static final String TLS_TRUST_ALL = "stampede.tls.trust_all";
    public static final String TLS_SNI = "stampede.tls.sni";

    public static final String CONNECTIONS_PER_THREAD = ScheduleSettings.CONNECTIONS_PER_THREAD;
    public static final String PACING_MS = ScheduleSettings.PACING_MS;
    public static final String TARGET_RATE = ScheduleSettings.TARGET_RATE;
    public static final String PIPELINE_DEPTH = ScheduleSettings.PIPELINE_DEPTH;
    public static final String SOURCE_ADDRESSES = SourceAddresses.PROPERTY;

    public static final int DEFAULT_PORT = 80;
    public static final int DEFAULT_CONNECT_TIMEOUT = 5000;
    public static final int DEFAULT_RESPONSE_TIMEOUT = 30000;
    public static final int DEFAULT_RESPONSE_BYTES_KEPT = 65536;

    private transient volatile HttpConnection inFlight;
    private transient UserConnections connections;
    private transient ResultFiller filler;
    private transient PreparedRequest prepared;
    private transient String preparedHost;
    private transient int preparedPort;
    private transient boolean preparedKeepAlive;
    private transient boolean preparedTls;
    private transient StampedeVariables variables;
    private transient volatile ConnectionGroup group;
    private transient ScheduleSettings schedule;
    private transient Tls tls;
    /** What the running connection group's requests use (response timeout, kept bytes, keep-alive); else null. */
    private transient GroupSettings groupSettings;

    /** The per-request settings of a connection group, read once when it is made, like the group's connections. */
    private record GroupSettings(int responseTimeout, int kept, boolean keepAlive) {
    }

    /**
     * The request for this sample. Implementations return the same instance while their (substituted) inputs are
     * unchanged, so an unchanged request is never re-encoded.
     *
     * @throws IllegalArgumentException naming the property and the fix when an input is unusable
     */
    protected abstract PreparedRequest request(String host, int port, boolean keepAlive, boolean tls);

    /** Whether this sampler's requests go over TLS (the RAW sampler's stampede.tls, the HTTP sampler's scheme). */
    protected abstract boolean tlsRequested();

    /**
     * The request kept from an earlier sample when it was built for this target, connection mode and TLS choice;
     * null otherwise. Subclasses then compare only their own inputs.
     */
    protected final PreparedRequest prepared(String host, int port, boolean keepAlive, boolean tls) {
        PreparedRequest p = prepared;
        return p != null && port == preparedPort && keepAlive == preparedKeepAlive && tls == preparedTls
                && host.equals(preparedHost) ? p : null;
    }

    /** Keeps {@code next}, built for this target, for the following samples and frees the one it replaces. */
    protected final void replacePrepared(PreparedRequest next, String host, int port, boolean keepAlive,
                                         boolean tls) {
        if (prepared != null) {
            prepared.release();
        }
        prepared = next;
        preparedHost = host;
        preparedPort = port;
        preparedKeepAlive = keepAlive;
        preparedTls = tls;
    }

    @Override
    public SampleResult sample(Entry entry) {
        SampleResult res = new SampleResult();
        res.setSampleLabel(getName());
        res.setDataType(SampleResult.TEXT);
        GroupSettings gs = groupSettings;
        if (gs != null && group != null) {
            SampleResult r = sampleFromRunningGroup(res, gs);
            if (r != null) {
                return r;
            }
        }
        String host;
        int port;
        int connectTimeout;
        int responseTimeout;
        int kept;
        boolean keepAlive = getKeepAlive();
        PreparedRequest req;
        ScheduleSettings sched;
        try {
            host = getHost();
            port = intProperty(PORT, DEFAULT_PORT, 1, 65535);
            connectTimeout = intProperty(CONNECT_TIMEOUT, DEFAULT_CONNECT_TIMEOUT, 1, Integer.MAX_VALUE / 1000);
            responseTimeout = intProperty(RESPONSE_TIMEOUT, DEFAULT_RESPONSE_TIMEOUT, 1, Integer.MAX_VALUE / 1000);
            kept = intProperty(RESPONSE_BYTES_KEPT, DEFAULT_RESPONSE_BYTES_KEPT, 0, Integer.MAX_VALUE - 8);
            tls = tls(host, port);
            req = request(host, port, keepAlive, tls != null);
            sched = schedule(keepAlive);
            if (connections == null && sched.classic()) {
                connections = userConnections();
            }
        } catch (IllegalArgumentException e) {
            res.sampleStart();
            res.sampleEnd();
            ResultFiller.fail(res, e);
            return res;
        }
        res.setURL(req.url());
        res.setSamplerData(req.text());
        if (filler == null) {
            filler = new ResultFiller();
            variables = StampedeVariables.fromJMeterProperties();
        }
        if (!sched.classic()) {
            groupSettings = new GroupSettings(responseTimeout, kept, keepAlive);
            return sampleFromGroup(res, sched, req, host, port, connectTimeout, responseTimeout, kept);
        }
        res.sampleStart();
        long start = System.nanoTime();
        boolean secure = tls != null;
        HttpConnection c;
        try {
            c = connections.get(host, port, secure, connectTimeout);
            c = send(res, req, c, host, port, connectTimeout, responseTimeout, kept, start);
        } catch (IOException e) {
            end(res);
            ResultFiller.fail(res, e);
            connections.done(null);
            return res;
        } finally {
            inFlight = null;
        }
        long waited = connections.waitedNanos();
        if (res.getConnectTime() == 0 && waited >= 1_000_000L) {
            // A wait for a pooled connection counts in Connect (as in Latency), as stock JMeter reports pool waits.
            res.setConnectTime(waited / 1_000_000L);
        }
        end(res);
        long elapsed = System.nanoTime() - start;
        res.setLatency((c.firstByteNanos() - start) / 1_000_000L);
        res.setSentBytes(req.length());
        filler.fill(res, c.response());
        if (!keepAlive || !c.reusable()) {
            connections.remove(host, port, secure, c);
        }
        connections.done(c);
        variables.put(elapsed, elapsed);
        return res;
    }

    /**
     * A sample of the running connection group, reading only what may change per request: the target (a new one
     * makes a new group) and the request. Timeouts, kept bytes, keep-alive and TLS stay as the group was made with.
     *
     * @return null when the target changed: the caller reads every setting again
     */
    private SampleResult sampleFromRunningGroup(SampleResult res, GroupSettings gs) {
        PreparedRequest req;
        String host;
        int port;
        try {
            host = getHost();
            port = intProperty(PORT, DEFAULT_PORT, 1, 65535);
            if (!group.targets(host, port, tls)) {
                return null;
            }
            req = request(host, port, gs.keepAlive(), tls != null);
        } catch (IllegalArgumentException e) {
            res.sampleStart();
            res.sampleEnd();
            ResultFiller.fail(res, e);
            return res;
        }
        return sampleFrom(group, res, req, gs.responseTimeout(), gs.kept());
    }

    /** The TLS settings while they are unchanged (null for plain TCP), so a sample builds none. */
    private Tls tls(String host, int port) {
        if (!tlsRequested()) {
            return null;
        }
        String sni = getPropertyAsString(TLS_SNI).trim();
        String name = sni.isEmpty() ? host : sni;
        boolean trustAll = getPropertyAsBoolean(TLS_TRUST_ALL, false);
        Tls t = tls;
        if (t == null || t.port() != port || t.trustAll() != trustAll || !t.serverName().equals(name)) {
            t = new Tls(name, port, trustAll);
        }
        return t;
    }

    /** The thread's own connections, or its leases on the engine-wide pool (stampede.connection_sharing). */
    private static UserConnections userConnections() {
        ConnectionSharing sharing = ConnectionSharing.fromJMeterProperties();
        return sharing.engine() ? PooledConnections.ofCurrentThread(sharing.poolSize())
                : ThreadConnections.ofCurrentThread();
    }

    /** The schedule properties, parsed at the thread's first sample and kept (they shape the connection group). */
    private ScheduleSettings schedule(boolean keepAlive) {
        ScheduleSettings s = schedule;
        if (s == null) {
            int c = intProperty(CONNECTIONS_PER_THREAD, 1, 1, 1_000_000);
            int pacing = intProperty(PACING_MS, 0, 0, Integer.MAX_VALUE);
            double rate = doubleProperty(TARGET_RATE);
            int depth = intProperty(PIPELINE_DEPTH, 1, 1, 1024);
            s = ScheduleSettings.of(c, pacing, rate, depth, keepAlive,
                    SourceAddresses.parse(getPropertyAsString(SOURCE_ADDRESSES)), IoMode.fromJMeterProperties());
            schedule = s;
        }
        return s;
    }

    /**
     * One response of the thread's connection group: whichever connection completes first. Its result is timed from
     * that connection's own send (or connect), and the connection gets its next request before the result returns.
     */
    private SampleResult sampleFromGroup(SampleResult res, ScheduleSettings sched, PreparedRequest req, String host,
                                         int port, int connectTimeout, int responseTimeout,
                                         int kept) {
        ConnectionGroup g = group;
        if (g == null || !g.targets(host, port, tls)) {
            InetSocketAddress address;
            try {
                address = resolve(host, port);
            } catch (UnknownHostException e) {
                res.sampleStart();
                res.sampleEnd();
                ResultFiller.fail(res, e);
                return res;
            }
            if (g != null) {
                g.close();
            }
            g = new ConnectionGroup(sched, address, JMeterContextService.getContext().getThreadNum(),
                    connectTimeout, tls);
            group = g;
        }
        return sampleFrom(g, res, req, responseTimeout, kept);
    }

    /** The next response of {@code g}, which targets this sample's host and port; its exchange is armed again. */
    private SampleResult sampleFrom(ConnectionGroup g, SampleResult res, PreparedRequest req, int responseTimeout,
                                    int kept) {
        Exchange c = g.next(req, kept, responseTimeout);
        if (c == null) {
            res.sampleStart();
            res.sampleEnd();
            ResultFiller.fail(res, new java.io.InterruptedIOException("Sample interrupted (test stopped)"));
            return res;
        }
        long start = c.startNanos() != 0 ? c.startNanos() : c.intendedNanos();
        long end = c.failed() || c.doneNanos() == 0 ? System.nanoTime() : c.doneNanos();
        long connect = c.connectNanos() > 0 ? connectMillis(c.connectNanos()) : 0;
        // As in the one-connection mode: a new connection shows Connect >= 1 ms, and elapsed is never shorter.
        res.setStampAndTime(g.epochMillis(start), Math.max(connect, (end - start) / 1_000_000L));
        PreparedRequest sent = c.request();
        res.setURL(sent.url());
        res.setSamplerData(sent.text());
        if (c.failed()) {
            ResultFiller.fail(res, c.failure());
        } else {
            res.setConnectTime(connect);
            res.setLatency((c.firstByteNanos() - start) / 1_000_000L);
            res.setSentBytes(sent.length());
            filler.fill(res, c.response());
        }
        variables.put(end - start, end - c.intendedNanos());
        g.rearm(c, req, kept, responseTimeout);
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
                    c.connect(resolve(host, port), connectTimeout, tls);
                } catch (IOException e) {
                    c.close();
                    throw e;
                }
                res.setConnectTime(connectMillis(System.nanoTime() - start));
                connections.put(host, port, tls != null, c);
            }
            inFlight = c;
            try {
                c.exchange(req.retainedBytes(), req.head(), keptBytes, responseTimeout);
                return c;
            } catch (IOException e) {
                connections.remove(host, port, tls != null, c);
                if (fresh || attempt > 0 || c.response().started() || !NonHttpFailure.staleConnection(e)) {
                    throw e;
                }
                c = null;
            }
        }
    }

    /**
     * JMeter's columns are whole milliseconds, and a loopback or LAN connect takes a fraction of one: rounded down,
     * a new connection would be indistinguishable from a reused one. So a sample that opened a connection reports
     * Connect of at least 1 ms (rounded up), and the JTL's Connect > 0 marks exactly the samples that connected.
     */
    static long connectMillis(long nanos) {
        return Math.max(1, (nanos + 999_999L) / 1_000_000L);
    }

    /** Ends the sample; elapsed includes the connect, so it is never shorter than the rounded-up Connect. */
    private static void end(SampleResult res) {
        res.sampleEnd();
        if (res.getTime() < res.getConnectTime()) {
            res.setEndTime(res.getStartTime() + res.getIdleTime() + res.getConnectTime());
        }
    }

    private HttpConnection drop(String host, int port, HttpConnection c) {
        connections.remove(host, port, tls != null, c);
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
        ConnectionGroup g = group;
        if (g != null) {
            g.interrupt();
        }
        HttpConnection c = inFlight;
        if (c != null) {
            c.interrupt();
        }
        return c != null || g != null;
    }

    @Override
    public void threadStarted() {
        // Connections open lazily at the first sample.
    }

    @Override
    public void threadFinished() {
        ConnectionGroup g = group;
        if (g != null) {
            g.close();
            group = null;
        }
        groupSettings = null;
        (connections != null ? connections : ThreadConnections.ofCurrentThread()).closeAll();
        replacePrepared(null, null, 0, false, false);
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

    private double doubleProperty(String name) {
        String v = getPropertyAsString(name).trim();
        if (v.isEmpty()) {
            return 0;
        }
        try {
            double d = Double.parseDouble(v);
            if (d >= 0 && d <= 1e9) {
                return d;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(name + ": '" + v + "' is not a rate; enter requests per second such as "
                + "250 or 0.5 (or leave it empty for none)");
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
