/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.doctor;

/**
 * TIME_WAIT sockets to the target before a run and the highest count seen after it or while it ran.
 */
public record TimeWaitTrend(long before, long peak) {

    public TimeWaitTrend {
        if (before < 0 || peak < 0) {
            throw new IllegalArgumentException("TIME_WAIT counts cannot be negative: " + before + ", " + peak);
        }
    }

    public long growth() {
        return Math.max(0, peak - before);
    }
}
