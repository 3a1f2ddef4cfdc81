/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sampler;

import io.stampede.engine.PreparedRequest;
import org.apache.jmeter.samplers.SampleResult;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

/**
 * The classic mode on connections the users of the engine share (stampede.connection_sharing=engine): each sample
 * leases a depth-1 connection from the engine-wide pool of its target through the user's {@link SharedConnections},
 * sends its one request, fills the result while the lease is held, and gives the connection back when the sample
 * ends, so a user holds no connection while it thinks. Waiting for a lease counts in the elapsed time,
 * Latency and (when no connection is opened) Connect; a pool that stays full past the connect timeout fails the
 * sample with a PoolTimeoutException. Settings are read at every sample, as in {@link SingleConnectionMode}. The
 * encoded request is dropped after each sample too, and the filler keeps no copy of the last response (it is made not
 * to remember one): a thinking user keeps neither a connection nor request or response bytes of its own (the
 * SampleResult JMeter keeps is JMeter's).
 */
final class PooledMode implements SamplingMode {
    private final StampedeSampler element;
    private final ResultFiller filler;
    private final SharedConnections connections;

    PooledMode(StampedeSampler element, int poolSize) {
        this.element = element;
        this.filler = new ResultFiller(false);
        this.connections = new SharedConnections(poolSize);
    }

    @Override
    public SampleResult sample(SampleResult res) {
        SamplerSettings s;
        PreparedRequest req;
        InetSocketAddress remote;
        try {
            s = element.settings();
            req = element.request(s.target(), s.keepAlive());
            remote = s.target().resolve();
        } catch (IllegalArgumentException | UnknownHostException e) {
            return filler.notStarted(res, e);
        }
        long start = System.nanoTime();
        try {
            connections.exchange(s.target(), remote, req, s.responseBytesKept(), s.connectTimeout(),
                    s.responseTimeout(), s.keepAlive(), (e, waited) -> {
                        filler.fill(res, e, start, waited);
                        return res;
                    });
        } catch (IOException e) {
            filler.notSent(res, start, e);
        } finally {
            element.forgetPrepared();
        }
        return res;
    }

    /** For tests of what a user keeps between samples. */
    ResultFiller filler() {
        return filler;
    }

    /** For tests of what a user keeps between samples. */
    SharedConnections connections() {
        return connections;
    }

    @Override
    public boolean interrupt() {
        connections.interrupt();
        return true;
    }

    /** Nothing to close: a lease ends with its sample, and the engine closes its pools at the test's end. */
    @Override
    public void close() {
        // nothing held between samples
    }
}
