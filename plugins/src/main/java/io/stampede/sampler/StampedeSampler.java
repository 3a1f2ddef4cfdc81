/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sampler;

import io.stampede.engine.EngineTestListener;
import io.stampede.engine.Engine;
import io.stampede.engine.PreparedRequest;
import io.stampede.engine.tls.Tls;
import io.stampede.names.PluginNames;
import org.apache.jmeter.samplers.AbstractSampler;
import org.apache.jmeter.samplers.Entry;
import org.apache.jmeter.samplers.Interruptible;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testelement.ThreadListener;

/**
 * The JMeter element both Stampede samplers share: its properties, the GUI contract and the thread and test
 * listeners. The work is elsewhere: a subclass is the request source (which bytes to send), a {@link SamplingMode}
 * chosen at the thread's first sample drives the I/O on the shared {@link Engine}, and {@link ResultFiller} fills
 * the result. Netty state is transient, so the element serialises for jmeter-server like any other.
 */
public abstract class StampedeSampler extends AbstractSampler implements Interruptible, ThreadListener,
        EngineTestListener {
    private static final long serialVersionUID = 1L;

    private transient volatile SamplingMode mode;
    private transient PreparedRequest prepared;
    private transient Target preparedTarget;
    private transient boolean preparedKeepAlive;
    /** The last target read, reused while host, port and TLS settings are unchanged, so a sample builds none. */
    private transient Target target;

    /**
     * The request for this sample: the request source of the seam (RAW text, the HTTP fields). Implementations return
     * the same instance while their (substituted) inputs are unchanged, so an unchanged request is never re-encoded.
     *
     * @throws IllegalArgumentException naming the property and the fix when an input is unusable
     */
    protected abstract PreparedRequest request(Target target, boolean keepAlive);

    /** Whether this sampler's requests go over TLS (the RAW sampler's stampede.tls, the HTTP sampler's scheme). */
    protected abstract boolean tlsRequested();

    /**
     * The request built at an earlier sample for this target and connection mode; null otherwise. Subclasses then
     * compare only their own inputs.
     */
    protected final PreparedRequest prepared(Target t, boolean keepAlive) {
        PreparedRequest p = prepared;
        return p != null && keepAlive == preparedKeepAlive && t.equals(preparedTarget) ? p : null;
    }

    /** Keeps {@code next}, built for this target, for the following samples and frees the one it replaces. */
    protected final void replacePrepared(PreparedRequest next, Target t, boolean keepAlive) {
        if (prepared != null) {
            prepared.release();
        }
        prepared = next;
        preparedTarget = t;
        preparedKeepAlive = keepAlive;
    }

    /**
     * Frees the request kept for the following samples: a user of the engine-wide pool holds no request bytes while
     * it thinks (100,000 of them would keep two encoded copies, a URL and a native buffer each), at the price of
     * encoding an unchanged request again at its next sample.
     */
    final void forgetPrepared() {
        replacePrepared(null, null, false);
        forgetInputs();
    }

    /**
     * Drops what a subclass keeps to compare the next sample's inputs with the request kept by {@link #prepared}:
     * once that request is freed, nothing compares with them.
     */
    protected void forgetInputs() {
        // nothing kept here
    }

    /**
     * JMeter's part: the label, then the sampling mode chosen at the thread's first sample from the schedule
     * properties, which does the rest.
     */
    @Override
    public SampleResult sample(Entry entry) {
        SampleResult res = new SampleResult();
        res.setSampleLabel(getName());
        res.setDataType(SampleResult.TEXT);
        SamplingMode m = mode;
        if (m == null) {
            try {
                m = chooseMode();
            } catch (IllegalArgumentException e) {
                return new ResultFiller().notStarted(res, e);
            }
            mode = m;
        }
        return m.sample(res);
    }

    /** The mode chosen at this clone's first sample (null before it), for tests of what a user keeps. */
    SamplingMode samplingMode() {
        return mode;
    }

    private SamplingMode chooseMode() {
        ProtocolSettings p = ProtocolSettings.read(this::getPropertyAsString);
        if (p.protocol().http2()) {
            return new Http2Mode(this, new ResultFiller(), p);
        }
        boolean keepAlive = getKeepAlive();
        ScheduleSettings schedule = ScheduleSettings.of(p.connections(), p.pacingMillis(), p.targetRate(),
                p.pipelineDepth(), keepAlive, SourceAddresses.parse(getPropertyAsString(PluginNames.SOURCE_ADDRESSES)),
                IoMode.fromJMeterProperties());
        if (!schedule.classic()) {
            return new GroupMode(this, new ResultFiller(), schedule);
        }
        ConnectionSharing sharing = ConnectionSharing.fromJMeterProperties();
        return sharing.engine() ? new PooledMode(this, sharing.poolSize())
                : new SingleConnectionMode(this, new ResultFiller());
    }

    /** The property errors in the request text name (the RAW text, the HTTP sampler's headers). */
    protected abstract String requestField();

    /** How to turn TLS on for this sampler, for the message that h2 needs it. */
    protected abstract String tlsHint();

    /** Reads the sample's settings from the element's properties. */
    SamplerSettings settings() {
        String host = getHost();
        int port = intProperty(PluginNames.PORT, PluginNames.DEFAULT_PORT, 1, 65535);
        int connectTimeout = intProperty(PluginNames.CONNECT_TIMEOUT, PluginNames.DEFAULT_CONNECT_TIMEOUT, 1, Integer.MAX_VALUE / 1000);
        int responseTimeout = intProperty(PluginNames.RESPONSE_TIMEOUT, PluginNames.DEFAULT_RESPONSE_TIMEOUT, 1, Integer.MAX_VALUE / 1000);
        int bytesKept = BodyLimits.keptBySampler(intProperty(PluginNames.RESPONSE_BYTES_KEPT,
                PluginNames.DEFAULT_RESPONSE_BYTES_KEPT, 0, Integer.MAX_VALUE - 8));
        return new SamplerSettings(target(host, port), connectTimeout, responseTimeout, bytesKept, getKeepAlive());
    }

    /** Whether the host and port properties still name {@code t} (its TLS settings stay as they were read). */
    boolean targets(Target t) {
        return t.port() == intProperty(PluginNames.PORT, PluginNames.DEFAULT_PORT, 1, 65535) && t.host().equals(getHost());
    }

    /** The target while host, port and TLS settings are unchanged, so a sample builds none. */
    private Target target(String host, int port) {
        Tls tls = null;
        if (tlsRequested()) {
            String sni = getPropertyAsString(PluginNames.TLS_SNI).trim();
            boolean trustAll = getPropertyAsBoolean(PluginNames.TLS_TRUST_ALL, false);
            Target t = target;
            String name = sni.isEmpty() ? host : sni;
            tls = t != null && t.tls() != null && t.tls().port() == port && t.tls().trustAll() == trustAll
                    && t.tls().serverName().equals(name) ? t.tls() : new Tls(name, port, trustAll);
        }
        Target t = target;
        if (t == null || !t.is(host, port, tls)) {
            t = new Target(host, port, tls);
            target = t;
        }
        return t;
    }

    /** Stop-test-now: the sample in flight on this clone's thread fails at once. */
    @Override
    public boolean interrupt() {
        SamplingMode m = mode;
        return m != null && m.interrupt();
    }

    @Override
    public void threadStarted() {
        // Connections open lazily at the first sample.
    }

    @Override
    public void threadFinished() {
        SamplingMode m = mode;
        if (m != null) {
            m.close();
            mode = null;
        }
        ThreadConnections.ofCurrentThread().closeAll();
        replacePrepared(null, null, false);
    }

    private int intProperty(String name, int dflt, int min, int max) {
        return PropertyNumbers.whole(name, getPropertyAsString(name), dflt, min, max);
    }

    public String getHost() {
        String h = getPropertyAsString(PluginNames.HOST).trim();
        if (h.isEmpty()) {
            throw new IllegalArgumentException(PluginNames.HOST + " is empty; enter the server's host name or IP address");
        }
        return h;
    }

    public void setHost(String host) {
        setProperty(PluginNames.HOST, host);
    }

    public void setPort(String port) {
        setProperty(PluginNames.PORT, port);
    }

    public void setConnectTimeout(String ms) {
        setProperty(PluginNames.CONNECT_TIMEOUT, ms);
    }

    public void setResponseTimeout(String ms) {
        setProperty(PluginNames.RESPONSE_TIMEOUT, ms);
    }

    public void setResponseBytesKept(String n) {
        setProperty(PluginNames.RESPONSE_BYTES_KEPT, n);
    }

    public boolean getKeepAlive() {
        return getPropertyAsBoolean(PluginNames.KEEP_ALIVE, true);
    }

    public void setKeepAlive(boolean keepAlive) {
        setProperty(PluginNames.KEEP_ALIVE, keepAlive);
    }
}
