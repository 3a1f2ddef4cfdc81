/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.doctor;

import java.util.OptionalLong;

/**
 * TIME_WAIT sockets to the target before a run, the highest count seen while it ran, and the highest count seen
 * when samples failed on their connections.
 *
 * <p>The count at the failures is the one that can blame the injector: TIME_WAIT also grows at the end of every
 * run, when the injector closes all its keep-alive connections at once, long after any failure.
 *
 * @param atFailures empty when no connection failed while TIME_WAIT was being sampled
 */
public record TimeWaitTrend(long before, long peak, OptionalLong atFailures) {

    public TimeWaitTrend {
        if (before < 0 || peak < 0 || atFailures.orElse(0) < 0) {
            throw new IllegalArgumentException("TIME_WAIT counts cannot be negative: " + before + ", " + peak + ", "
                    + atFailures);
        }
    }

    /** Counted only before and after: the failures are assumed to have met the highest count. */
    public TimeWaitTrend(long before, long peak) {
        this(before, peak, OptionalLong.of(peak));
    }
}
