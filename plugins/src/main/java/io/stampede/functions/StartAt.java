/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.functions;

import io.stampede.names.PluginNames;
import java.time.Instant;
import java.util.function.LongSupplier;
import org.apache.jmeter.testelement.AbstractTestElement;
import org.apache.jmeter.testelement.TestStateListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Holds the start of the test until one moment, so that injectors started apart ({@code stampede run --share I/N
 * --start-at}) ramp up together, as the engines of a distributed run do: each JMeter starts (classes, plugins, its
 * injector monitor) before that moment, and no injector's start competes with another's ramp-up. JMeter calls
 * {@link #testStarted()} before any thread group makes its threads, so waiting there delays them all. A JMeter that
 * comes up after the moment starts at once and says by how much it was late.
 */
public final class StartAt extends AbstractTestElement implements TestStateListener {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(StartAt.class);

    /** The moment, in milliseconds since the epoch, saved in the plan. */
    public static final String EPOCH_MILLIS = PluginNames.START_AT_EPOCH_MILLIS;

    public void setEpochMillis(long epochMillis) {
        setProperty(EPOCH_MILLIS, epochMillis);
    }

    @Override
    public void testStarted() {
        testStarted("");
    }

    @Override
    public void testStarted(String host) {
        try {
            long late = awaitStart(getPropertyAsLong(EPOCH_MILLIS), System::currentTimeMillis);
            if (late > 0) {
                LOG.warn("Stampede start-at {}: JMeter was ready {} ms after it, so the test starts now",
                        Instant.ofEpochMilli(getPropertyAsLong(EPOCH_MILLIS)), late);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the test was stopped while it waited
        }
    }

    /**
     * Sleeps until {@code startMillis} by {@code clock}.
     *
     * @return how many milliseconds after {@code startMillis} this was called (0 when it waited)
     */
    static long awaitStart(long startMillis, LongSupplier clock) throws InterruptedException {
        long wait = startMillis - clock.getAsLong();
        if (wait < 0) {
            return -wait;
        }
        LOG.info("Stampede start-at {}: the thread groups start in {} ms", Instant.ofEpochMilli(startMillis), wait);
        // the wall clock may be stepped (NTP) meanwhile: sleep in short steps and read it again
        while ((wait = startMillis - clock.getAsLong()) > 0) {
            Thread.sleep(Math.min(wait, 200));
        }
        return 0;
    }

    @Override
    public void testEnded() {
        // nothing held
    }

    @Override
    public void testEnded(String host) {
        // as testEnded()
    }
}
