/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.injectorhealth;

import io.stampede.results.Sample;

/**
 * How late the samplers sent, from the JTL: for a sample on a pacing or rate schedule, its latency from the
 * intended send time minus its latency from the actual send is the time it waited for the injector. Samples of
 * the first {@link InjectorThresholds#WARMUP_MS} are not counted.
 */
public final class ScheduleLag {
    private long firstStart = Long.MAX_VALUE;
    private long scheduled;
    private long late;
    private long maxLagUs;

    public void add(Sample s) {
        if (s.correctedUs() < 0 || s.elapsedUs() < 0) {
            return;
        }
        firstStart = Math.min(firstStart, s.timeStamp());
        if (s.timeStamp() < firstStart + InjectorThresholds.WARMUP_MS) {
            return; // JMeter's own start (class loading, JIT, the first connections) is not the run's load
        }
        scheduled++;
        long lag = Math.max(0, s.correctedUs() - s.elapsedUs());
        if (lag > InjectorThresholds.LATE_SEND_US) {
            late++;
        }
        maxLagUs = Math.max(maxLagUs, lag);
    }

    /** Samples that had an intended send time. */
    public long scheduled() {
        return scheduled;
    }

    /** Of those, the ones sent more than {@link InjectorThresholds#LATE_SEND_US} late. */
    public long late() {
        return late;
    }

    public double lateShare() {
        return scheduled == 0 ? 0 : (double) late / scheduled;
    }

    public long maxLagUs() {
        return maxLagUs;
    }
}
