/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sampler;

import io.stampede.engine.http1.Http1Exchange;
import io.stampede.engine.http1.Http1Connection;
import io.stampede.engine.PreparedRequest;
import io.stampede.engine.http1.ThreadIoConnection;
import org.apache.jmeter.samplers.SampleResult;

import java.net.UnknownHostException;

/**
 * The classic mode: one request per sample on the connection the thread owns for the target (kept alive across
 * samples and shared by the thread's Stampede samplers). On a plain-TCP target the thread writes and reads the
 * connection itself ({@link ThreadIoConnection}, unless stampede.io_mode is engine); over TLS it hands the request to
 * the engine's event loop and parks until the response is complete. Settings
 * are read at every sample, so they may change between samples.
 */
final class SingleConnectionMode implements SamplingMode {
    private final StampedeSampler element;
    private final ResultFiller filler;
    private volatile ThreadConnections connections;

    SingleConnectionMode(StampedeSampler element, ResultFiller filler) {
        this.element = element;
        this.filler = filler;
    }

    @Override
    public SampleResult sample(SampleResult res) {
        SamplerSettings s;
        PreparedRequest req;
        ThreadConnections tc = connections;
        if (tc == null) {
            tc = ThreadConnections.ofCurrentThread();
            connections = tc;
        }
        try {
            s = element.settings();
            req = element.request(s.target(), s.keepAlive());
            if (tc.ownsIo(s.target())) {
                return sampleOnOwnIo(res, tc.own(s.target()), s, req);
            }
            Http1Connection c = tc.get(s.target(), s.connectTimeout());
            Http1Exchange e = tc.completion().send(c, req, s.responseBytesKept(), s.connectTimeout(), s.responseTimeout());
            filler.fill(res, e, e.intendedNanos());
            if (!s.keepAlive()) {
                // The request asked the server to close; if it did not, close here so the next sample connects anew.
                c.closeChannel();
            }
            return res;
        } catch (IllegalArgumentException | UnknownHostException e) {
            return filler.notStarted(res, e);
        }
    }

    /** The same sample with the thread's own I/O: no hand-off to an event loop and back. */
    private SampleResult sampleOnOwnIo(SampleResult res, ThreadIoConnection c, SamplerSettings s,
                                       PreparedRequest req) {
        Http1Exchange e = c.send(req, s.responseBytesKept(), s.connectTimeout(), s.responseTimeout());
        filler.fill(res, e, e.intendedNanos());
        if (!s.keepAlive()) {
            c.closeChannel();
        }
        return res;
    }

    @Override
    public boolean interrupt() {
        ThreadConnections tc = connections;
        if (tc != null) {
            tc.interrupt();
        }
        return tc != null;
    }

    @Override
    public void close() {
        ThreadConnections tc = connections;
        if (tc != null) {
            tc.closeAll();
        }
    }
}
