/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sampler;

import org.apache.jmeter.samplers.SampleResult;

/**
 * Who drives a thread's I/O and how results come back to it. Chosen once, at the thread's first sample, from the
 * schedule properties and stampede.connection_sharing: {@link SingleConnectionMode} (one connection the thread owns,
 * one request per sample), {@link PooledMode} (the same, on a connection leased per sample from the engine-wide pool,
 * for many mostly idle virtual users) or {@link GroupMode} (many connections per thread, pacing, target rate,
 * pipelining). Each mode owns its timeouts and its cleanup at threadFinished.
 */
interface SamplingMode {

    /** One sample: {@code res} carries the label; the mode reads the element's settings and request and fills it. */
    SampleResult sample(SampleResult res);

    /** Any thread (stop test now): a sample in progress ends at once. True when one may have been in progress. */
    boolean interrupt();

    /** The owning thread finished: close what the mode holds. */
    void close();
}
