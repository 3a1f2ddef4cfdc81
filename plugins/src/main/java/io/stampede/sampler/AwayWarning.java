/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sampler;

import io.stampede.names.PluginNames;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A thread that does its connections' I/O itself reads responses only while it is in its sampler: a timer or another
 * sampler in the thread delays them, and their times include the delay. Said once per connection group, in
 * jmeter.log, when the thread came back after {@value #AWAY_WARNING_MILLIS} ms or more with requests in flight.
 */
final class AwayWarning {
    private static final Logger LOG = LoggerFactory.getLogger(AwayWarning.class);
    private static final long AWAY_WARNING_MILLIS = 100;
    private static final long AWAY_WARNING_NANOS = TimeUnit.MILLISECONDS.toNanos(AWAY_WARNING_MILLIS);

    private final int connections;
    /** What the user can do instead of a timer, besides reading on the engine's threads. */
    private final String instead;
    private long returnedNanos;
    private boolean warned;

    AwayWarning(int connections, String instead) {
        this.connections = connections;
        this.instead = instead;
    }

    /** The thread leaves the sampler with requests in flight. */
    void left(long nowNanos) {
        returnedNanos = nowNanos;
    }

    /** The thread is back in the sampler. */
    void back(long nowNanos) {
        long away = nowNanos - returnedNanos;
        if (away >= AWAY_WARNING_NANOS && !warned && returnedNanos != 0) {
            warned = true;
            LOG.warn("{}: the thread was away from its sampler for {} ms while its {} connections had requests in "
                    + "flight (a timer or another sampler in the thread?). Their responses are read only when the "
                    + "sampler runs, so their times include that wait. {}or set {}={} to read responses on the "
                    + "engine's threads.", Thread.currentThread().getName(), TimeUnit.NANOSECONDS.toMillis(away),
                    connections, instead, PluginNames.IO_MODE, IoMode.ENGINE.value());
        }
    }
}
