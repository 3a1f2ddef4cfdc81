/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.compare;

/**
 * The smallest difference a verdict calls a difference: {@code percent} of the baseline, and for latencies at
 * least {@code micros}. With thousands of samples an interval can exclude zero for a difference of a few µs
 * that no one would act on; under the margin the verdict stays "no significant difference" and says why.
 */
public record Margin(double percent, double micros) {
    public static final Margin NONE = new Margin(0, 0);
    /** The command's default: 1 % of the baseline, and 0.02 ms for latencies. */
    public static final Margin DEFAULT = new Margin(1, 20);

    public Margin {
        if (percent < 0 || micros < 0) {
            throw new IllegalArgumentException("a margin cannot be negative");
        }
    }

    boolean exceededBy(Estimate e) {
        double floor = Math.abs(e.baseline()) * percent / 100;
        if (e.latency()) {
            floor = Math.max(floor, micros);
        }
        return Math.abs(e.difference()) >= floor;
    }
}
