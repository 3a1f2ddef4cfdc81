/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sampler;

import io.stampede.engine.Failures;
import io.stampede.engine.Engine;
import io.stampede.engine.http2.Http2Exchange;
import io.stampede.engine.http2.Http2Group;
import io.stampede.engine.http2.Http2Request;
import io.stampede.engine.HttpProtocol;
import io.stampede.engine.PreparedRequest;
import org.apache.jmeter.samplers.SampleResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.UnknownHostException;

/**
 * HTTP/2 (stampede.protocol h2 or h2c): the thread's {@link Http2Group} of {@code connections} connections with
 * {@code streams} streams each. With 1 x 1 a sample is one request sent when the sample starts, as in the classic
 * mode; with more, the thread keeps connections x streams requests in flight and each sample is the next stream to
 * complete, timed from its own send (and connect, for the stream that opened the connection). The request both
 * samplers build as HTTP/1.1 text is read once into an HTTP/2 request; a changed target makes a new group.
 */
final class Http2Mode implements SamplingMode {
    private static final Logger LOG = LoggerFactory.getLogger(Http2Mode.class);

    private final StampedeSampler element;
    private final ResultFiller filler;
    private final ProtocolSettings settings;
    private final HttpProtocol protocol;
    private volatile Http2Group group;
    /** Null unless the group's I/O runs on the thread's own loop. */
    private AwayWarning away;
    private Target groupTarget;
    private PreparedRequest lastSource;
    private Http2Request lastRequest;
    private boolean fallbackLogged;

    Http2Mode(StampedeSampler element, ResultFiller filler, ProtocolSettings settings) {
        this.element = element;
        this.filler = filler;
        this.settings = settings;
        this.protocol = settings.protocol();
    }

    @Override
    public SampleResult sample(SampleResult res) {
        SamplerSettings s;
        Http2Request req;
        Http2Group g;
        try {
            s = element.settings();
            Target t = s.target();
            settings.requireTransport(t.secure(), element.tlsHint());
            req = request(element.request(t, s.keepAlive()), t);
            g = group;
            if (g == null || !t.equals(groupTarget) || !g.usable()) {
                g = newGroup(s);
            }
        } catch (IllegalArgumentException | UnknownHostException e) {
            return filler.notStarted(res, e);
        }
        AwayWarning a = away;
        if (a != null) {
            a.back(System.nanoTime());
        }
        Http2Exchange e = g.next(req, s.responseBytesKept(), s.responseTimeout());
        if (a != null) {
            a.left(System.nanoTime());
        }
        if (e == null) {
            return filler.notStarted(res, Failures.interrupted());
        }
        if (protocol == HttpProtocol.H2 && !e.failed() && !fallbackLogged && "HTTP/1.1".equals(e.protocol())) {
            fallbackLogged = true;
            LOG.info("{}: the server at {}:{} did not choose h2 in ALPN; its connections speak HTTP/1.1 (see the "
                    + "response headers' first line)", element.getName(), groupTarget.host(), groupTarget.port());
        }
        filler.fill(res, e, e.startNanos() != 0 ? e.startNanos() : e.intendedNanos());
        return res;
    }

    /** The HTTP/2 form of the sampler's request, read again only when the sampler built a new one. */
    private Http2Request request(PreparedRequest source, Target t) {
        if (source != lastSource) {
            int defaultPort = t.secure() ? 443 : 80;
            String host = t.host().indexOf(':') >= 0 ? '[' + t.host() + ']' : t.host();
            lastRequest = Http2Request.of(source, element.requestField(), t.secure(),
                    t.port() == defaultPort ? host : host + ':' + t.port());
            lastSource = source;
        }
        return lastRequest;
    }

    private Http2Group newGroup(SamplerSettings s) throws UnknownHostException {
        Http2Group old = group;
        Target t = s.target();
        int connections = settings.connections();
        int streams = settings.streams();
        // As for HTTP/1.1: the thread does its connections' I/O itself when it keeps enough streams in flight.
        boolean ownLoop = IoMode.fromJMeterProperties().resolve(connections * streams) == IoMode.THREAD;
        Http2Group g = new Http2Group(Engine.get(), t.resolve(), null, t.tls(), settings.http2(), connections, streams,
                s.connectTimeout(), ownLoop);
        if (old != null) {
            old.close();
        }
        groupTarget = t;
        group = g;
        away = ownLoop ? new AwayWarning(connections, "Keep timers and other samplers out of this thread group, ")
                : null;
        return g;
    }

    @Override
    public boolean interrupt() {
        Http2Group g = group;
        if (g != null) {
            g.interrupt();
        }
        return g != null;
    }

    @Override
    public void close() {
        Http2Group g = group;
        if (g != null) {
            g.close();
            group = null;
        }
    }
}
