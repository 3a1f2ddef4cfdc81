/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sampler;

import io.stampede.engine.Exchange;
import io.stampede.engine.Http1Connection;
import io.stampede.engine.PreparedRequest;
import org.apache.jmeter.samplers.SampleResult;

import java.net.UnknownHostException;

/**
 * The classic mode: one request per sample on the connection the thread owns for the target (kept alive across
 * samples and shared by the thread's Stampede samplers); the thread parks until the response is complete. Settings
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
        Http1Connection c;
        ThreadConnections tc = connections;
        if (tc == null) {
            tc = ThreadConnections.ofCurrentThread();
            connections = tc;
        }
        try {
            s = element.settings();
            req = element.request(s.target(), s.keepAlive());
            c = tc.get(s.target(), s.connectTimeout());
        } catch (IllegalArgumentException | UnknownHostException e) {
            return ResultFiller.notStarted(res, e);
        }
        Exchange e = tc.completion().send(c, req, s.responseBytesKept(), s.connectTimeout(), s.responseTimeout());
        filler.fill(res, e, e.intendedNanos());
        if (!s.keepAlive()) {
            // The request asked the server to close; if it did not, close here so the next sample connects anew.
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
