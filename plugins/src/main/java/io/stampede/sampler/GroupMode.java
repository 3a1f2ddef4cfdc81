/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sampler;

import io.stampede.engine.Failures;
import io.stampede.names.PluginNames;
import io.stampede.engine.http1.ConnectionGroup;
import io.stampede.engine.Engine;
import io.stampede.engine.http1.Http1Exchange;
import io.stampede.engine.PreparedRequest;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;

import java.net.InetSocketAddress;
import java.net.UnknownHostException;

/**
 * Many connections per thread, on a schedule or pipelined: each sample is the next response of the thread's
 * {@link ConnectionGroup}, timed from its own connect or write. The settings that shape the group (timeouts, kept
 * bytes, keep-alive, TLS) are read once, when it is made; per sample only the target and the request are read, and
 * a new target makes a new group.
 */
final class GroupMode implements SamplingMode {
    private final StampedeSampler element;
    private final ResultFiller filler;
    private final ScheduleSettings schedule;
    /** The settings the running group was made with; null before the first group. */
    private SamplerSettings settings;
    private volatile ConnectionGroup group;
    private AwayWarning away;

    GroupMode(StampedeSampler element, ResultFiller filler, ScheduleSettings schedule) {
        this.element = element;
        this.filler = filler;
        this.schedule = schedule;
    }

    @Override
    public SampleResult sample(SampleResult res) {
        PreparedRequest req;
        ConnectionGroup g = group;
        try {
            SamplerSettings s = settings;
            if (g == null || !element.targets(s.target())) {
                s = element.settings();
                req = element.request(s.target(), s.keepAlive());
                g = newGroup(s);
            } else {
                req = element.request(s.target(), s.keepAlive());
            }
        } catch (IllegalArgumentException | UnknownHostException e) {
            return filler.notStarted(res, e);
        }
        SamplerSettings s = settings;
        AwayWarning a = away;
        if (a != null) {
            a.back(System.nanoTime());
        }
        Http1Exchange e = g.next(req, s.responseBytesKept(), s.responseTimeout());
        if (a != null) {
            a.left(System.nanoTime());
        }
        if (e == null) {
            return filler.notStarted(res, Failures.interrupted());
        }
        filler.fill(res, e, e.startNanos() != 0 ? e.startNanos() : e.intendedNanos());
        g.rearm(e, req, s.responseBytesKept(), s.responseTimeout());
        return res;
    }

    private ConnectionGroup newGroup(SamplerSettings s) throws UnknownHostException {
        ConnectionGroup old = group;
        int firstSource = JMeterContextService.getContext().getThreadNum();
        InetSocketAddress[] sources = new InetSocketAddress[schedule.connections()];
        for (int i = 0; i < sources.length; i++) {
            sources[i] = schedule.source(firstSource + i);
        }
        boolean ownLoop = schedule.ioMode() == IoMode.THREAD;
        ConnectionGroup g = new ConnectionGroup(Engine.get(), s.target().resolve(), sources, schedule.pipelineDepth(),
                schedule.intervalNanos(), ownLoop, s.connectTimeout(), s.target().tls());
        // A thread on its own loop reads responses only while in its sampler (null: the engine's loops read them).
        away = ownLoop ? new AwayWarning(sources.length, "Use " + PluginNames.PACING_MS + " or "
                + PluginNames.TARGET_RATE + " instead of timers, ") : null;
        if (old != null) {
            old.close();
        }
        settings = s;
        group = g;
        return g;
    }

    @Override
    public boolean interrupt() {
        ConnectionGroup g = group;
        if (g != null) {
            g.interrupt();
        }
        return g != null;
    }

    @Override
    public void close() {
        ConnectionGroup g = group;
        if (g != null) {
            g.close();
            group = null;
        }
        settings = null;
    }
}
