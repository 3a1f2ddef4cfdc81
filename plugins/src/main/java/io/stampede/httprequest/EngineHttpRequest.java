/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.httprequest;

import io.stampede.engine.http2.Http2Options;
import io.stampede.engine.HttpProtocol;
import io.stampede.names.PluginNames;
import io.stampede.sampler.BodyLimits;
import io.stampede.sampler.ProtocolSettings;
import org.apache.jmeter.engine.event.LoopIterationEvent;
import org.apache.jmeter.protocol.http.control.CookieManager;
import org.apache.jmeter.protocol.http.sampler.HTTPSampleResult;
import org.apache.jmeter.protocol.http.sampler.HTTPSamplerBase;
import org.apache.jmeter.samplers.Interruptible;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.apache.jmeter.util.JMeterUtils;

import java.net.URL;

/**
 * JMeter's HTTP Request on the Stampede engine. It is an {@link HTTPSamplerBase}, so everything the stock element
 * does around one exchange stays JMeter's own code: the HTTPSampler.* properties, HTTP Request Defaults, the managers
 * added to it, "Follow redirects", embedded resources with their parallel pool, "Save response as MD5 hash". Only the
 * exchange itself ({@link #sample(URL, String, boolean, int)}) runs on the engine, in {@link EngineSample}; a request
 * using a feature the engine lacks runs on stock's HttpClient 4 implementation instead, and a {@code file:} URL or a
 * sampler choosing the Java implementation on the implementation stock would pick ({@link StockImplementations}).
 *
 * <p>Connections are the thread's, as stock's are: kept across iterations while the thread group's "Same user on each
 * iteration" is on, closed before the next iteration's first request when it is off (and
 * {@code httpclient.reset_state_on_thread_group_iteration} is true, its default), closed when the thread ends.
 */
public final class EngineHttpRequest extends HTTPSamplerBase implements Interruptible {
    private static final long serialVersionUID = 1L;
    private static final boolean RESET_STATE_ON_ITERATION =
            JMeterUtils.getPropDefault("httpclient.reset_state_on_thread_group_iteration", true);

    private static final String[] H2_SETTINGS = {PluginNames.H2_WINDOW, PluginNames.H2_MAX_REQUESTS, PluginNames.H2_PING_MS};

    private transient StockImplementations fallback;
    /** What this element said in jmeter.log in this test run: made at testStarted, shared with the thread clones. */
    private transient RouteNotes notes;
    /** The HTTP/2 settings last parsed (in {@link #H2_SETTINGS}' order) and what they parsed to, as for the protocol. */
    private transient String[] http2Texts;
    private transient Http2Options http2Options;
    /** The protocol setting last read and what it parsed to: a sample parses it only when it changed. */
    private transient String protocolText;
    private transient HttpProtocol protocol;
    /** The body limit's property text last read and what it parsed to, as for the protocol. */
    private transient String bodyLimitText;
    private transient BodyLimits bodyLimits;
    /** The link of the thread sampling now, for {@link #interrupt()} from another thread. */
    private transient volatile EngineLink link;

    @Override
    protected HTTPSampleResult sample(URL url, String method, boolean areFollowingRedirect, int depth) {
        RouteNotes n = notes();
        boolean stock = StockImplementations.servedByStock(this, url, n);
        String feature = stock ? null : StockImplementations.unsupportedFeature(this, url, method, n);
        if (stock || feature != null) {
            return fallback().sample(url, method, areFollowingRedirect, depth, feature);
        }
        EngineLink l;
        try {
            l = EngineLink.ofCurrentThread();
        } catch (IllegalArgumentException e) {
            HTTPSampleResult res = new HTTPSampleResult();
            res.setSampleLabel(getName());
            res.setURL(url);
            res.sampleStart();
            res.sampleEnd();
            return errorResult(e, res);
        }
        link = l;
        return new EngineSample(this, l).run(url, method, areFollowingRedirect, depth);
    }

    /**
     * The protocol this element speaks now.
     *
     * @throws IllegalArgumentException naming the property and the accepted values
     */
    HttpProtocol protocol() {
        String text = setting(PluginNames.PROTOCOL);
        if (!text.equals(protocolText)) {
            protocol = HttpProtocol.parse(ownSetting(PluginNames.PROTOCOL) ? PluginNames.PROTOCOL + " of HTTP Request '" + getName() + "'"
                    : "JMeter property " + PluginNames.PROTOCOL, text);
            protocolText = text;
        }
        return protocol;
    }

    /**
     * How much of a response body a sample holds: JMeter's {@code httpsampler.max_bytes_to_store_per_request} and
     * the JMeter property {@value PluginNames#HTTPREQUEST_MAX_BODY_BYTES}.
     *
     * @throws IllegalArgumentException naming the property and the accepted values
     */
    BodyLimits bodyLimits() {
        String text = JMeterUtils.getPropDefault(PluginNames.HTTPREQUEST_MAX_BODY_BYTES, "");
        if (!text.equals(bodyLimitText)) {
            bodyLimits = BodyLimits.ofHttpRequest(text);
            bodyLimitText = text;
        }
        return bodyLimits;
    }

    /**
     * HTTP/2's connection options for this element now: {@link PluginNames#H2_WINDOW}, {@link PluginNames#H2_MAX_REQUESTS} and
     * {@link PluginNames#H2_PING_MS}, each read as the protocol is. Streams per connection are not among them: an HTTP Request
     * sends one request per sample.
     *
     * @throws IllegalArgumentException naming the property, where it was set, and the fix
     */
    Http2Options http2Options() {
        boolean changed = http2Texts == null;
        for (int i = 0; i < H2_SETTINGS.length && !changed; i++) {
            changed = !setting(H2_SETTINGS[i]).equals(http2Texts[i]);
        }
        if (!changed) {
            return http2Options;
        }
        String[] read = new String[H2_SETTINGS.length]; // only on a change: the common sample allocates nothing
        for (int i = 0; i < read.length; i++) {
            read[i] = setting(H2_SETTINGS[i]);
        }
        try {
            http2Options = ProtocolSettings.http2Options(name -> {
                int i = h2Setting(name);
                return i < 0 ? "" : read[i];
            });
        } catch (IllegalArgumentException e) {
            String name = PluginNames.H2_WINDOW; // each message starts with its property's name
            for (String n : H2_SETTINGS) {
                if (e.getMessage().startsWith(n)) {
                    name = n;
                }
            }
            throw new IllegalArgumentException((ownSetting(name) ? "HTTP Request '" + getName() + "', "
                    : "JMeter property ") + e.getMessage(), e);
        }
        http2Texts = read;
        return http2Options;
    }

    /** The index of {@code name} in {@link #H2_SETTINGS}, or -1. */
    private static int h2Setting(String name) {
        for (int i = 0; i < H2_SETTINGS.length; i++) {
            if (H2_SETTINGS[i].equals(name)) {
                return i;
            }
        }
        return -1;
    }

    /** A Stampede setting: this element's own property when it has one, else the plan-wide JMeter property. */
    private String setting(String name) {
        String own = getPropertyAsString(name);
        return own.isBlank() ? JMeterUtils.getPropDefault(name, "") : own;
    }

    private boolean ownSetting(String name) {
        return !getPropertyAsString(name).isBlank();
    }

    private StockImplementations fallback() {
        if (fallback == null) {
            fallback = new StockImplementations(this, notes());
        }
        return fallback;
    }

    /** The notes of this run; an element sampled without a test start (a test driving it directly) makes its own. */
    private RouteNotes notes() {
        RouteNotes n = notes;
        if (n == null) {
            n = new RouteNotes();
            notes = n;
        }
        return n;
    }

    /** A new run: nothing said yet. Called on the element in the plan, before the threads clone it. */
    @Override
    public void testStarted() {
        super.testStarted();
        notes = new RouteNotes();
    }

    /** The thread's clone shares the plan element's notes, so each line is written once per run, not per thread. */
    @Override
    public Object clone() {
        EngineHttpRequest c = (EngineHttpRequest) super.clone();
        c.notes = notes();
        return c;
    }

    /**
     * JMeter 5.6.3 hands the thread's Cookie Manager to the sampler again before every sample after the first
     * iteration and logs "Existing CookieManager X superseded by X" each time (apache/jmeter#6457): hundreds of
     * thousands of WARN lines in a minute of load, and their cost on every sample. The same manager replacing
     * itself is set here without that line; a different one still gets JMeter's WARN.
     */
    @Override
    public void setCookieManager(CookieManager value) {
        if (value != null && value == getCookieManager()) {
            set(getSchema().getCookieManager(), value);
            return;
        }
        super.setCookieManager(value);
    }

    @Override
    public void testIterationStart(LoopIterationEvent event) {
        JMeterVariables vars = JMeterContextService.getContext().getVariables();
        if (RESET_STATE_ON_ITERATION && (vars == null || !vars.isSameUserOnNextIteration())) {
            try {
                EngineLink.ofCurrentThread().closeBeforeNextSample();
            } catch (IllegalArgumentException e) {
                // The thread's first sample reports the setting; nothing is open to close.
            }
        }
        if (fallback != null) {
            fallback.notifyFirstSampleAfterLoopRestart();
        }
    }

    @Override
    public void threadFinished() {
        EngineLink.closeCurrentThread();
        if (fallback != null) {
            fallback.threadFinished();
        }
    }

    @Override
    public boolean interrupt() {
        EngineLink l = link;
        boolean interrupted = l != null && l.interrupt();
        return (fallback != null && fallback.interrupt()) || interrupted;
    }

    @Override
    public void testEnded() {
        super.testEnded();
        EngineLink.testEnded();
    }

    // JMeter's own steps, which HTTPSamplerBase keeps protected, for the engine's sample flow.

    HTTPSampleResult errorResultOf(Throwable t, HTTPSampleResult res) {
        return errorResult(t, res);
    }

    HTTPSampleResult processResult(boolean areFollowingRedirect, int depth, HTTPSampleResult res) {
        return resultProcessing(areFollowingRedirect, depth, res);
    }

    boolean successCode(int status) {
        return isSuccessCode(status);
    }
}
