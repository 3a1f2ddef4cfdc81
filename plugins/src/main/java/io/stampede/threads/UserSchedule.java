/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.threads;

import io.stampede.names.PluginNames;
import org.apache.jmeter.threads.AbstractThreadGroup;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

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

    /**
     * Reads the group's settings (users, delay, ramp-up, hold: whole numbers, seconds); a bad one is refused naming
     * {@code group} and the property.
     *
     * @param property a property's value by name, "" when it is not set
     */
    public static UserSchedule read(UnaryOperator<String> property, String group) {
        int n = whole(property, AbstractThreadGroup.NUM_THREADS, "users", group);
        long delay = whole(property, PluginNames.USERS_DELAY, "delay (s)", group);
        long rampUp = whole(property, PluginNames.USERS_RAMP_UP, "ramp-up (s)", group);
        long hold = whole(property, PluginNames.USERS_HOLD, "hold (s)", group);
        return new UserSchedule(n, TimeUnit.SECONDS.toMillis(delay), TimeUnit.SECONDS.toMillis(rampUp),
                TimeUnit.SECONDS.toMillis(hold));
    }

    private static int whole(UnaryOperator<String> property, String name, String label, String group) {
        String v = property.apply(name).trim();
        if (v.isEmpty()) {
            return 0;
        }
        try {
            int n = Integer.parseInt(v);
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(group + ": " + label + " (" + name + ") is '" + v
                + "'; enter a whole number of 0 or more");
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
