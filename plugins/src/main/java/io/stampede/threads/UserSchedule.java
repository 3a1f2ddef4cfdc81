/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.threads;

/**
 * When each virtual user starts and when all of them stop: the first user after {@code delay}, the others spread
 * evenly over {@code rampUp}, and every user stops {@code hold} after the ramp-up ends (0: no time limit, users stop
 * after their loops). Times are milliseconds relative to the group's start.
 */
public record UserSchedule(int users, long delayMillis, long rampUpMillis, long holdMillis) {
    public UserSchedule {
        if (users < 0 || delayMillis < 0 || rampUpMillis < 0 || holdMillis < 0) {
            throw new IllegalArgumentException("negative schedule " + users + "/" + delayMillis + "/" + rampUpMillis
                    + "/" + holdMillis);
        }
    }

    /** When user {@code index} (0-based) starts: one ramp-up/users step apart, as JMeter's Thread Group spaces them. */
    public long startOffset(int index) {
        if (users <= 1) {
            return delayMillis;
        }
        return delayMillis + rampUpMillis * index / users;
    }

    /** Whether the users stop at a fixed time (a hold time was given). */
    public boolean timed() {
        return holdMillis > 0;
    }

    /** When every user stops, if {@link #timed()}. */
    public long endOffset() {
        return delayMillis + rampUpMillis + holdMillis;
    }
}
