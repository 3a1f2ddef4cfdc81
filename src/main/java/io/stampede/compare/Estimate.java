/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.compare;

/**
 * One statistic of a configuration against the baseline: both point values (latencies in µs, rates in req/s),
 * and the 95 % bootstrap intervals of their difference and of their ratio.
 */
public record Estimate(String statistic, boolean latency, double baseline, double value, double lo, double hi,
                       double ratioLo, double ratioHi) {

    public double difference() {
        return value - baseline;
    }

    public double ratio() {
        return baseline == 0 ? Double.NaN : value / baseline;
    }

    /** Half the interval's width: the "±" of the verdict. */
    public double halfWidth() {
        return (hi - lo) / 2;
    }

    /** The interval of the difference leaves out zero. */
    public boolean excludesZero() {
        return lo > 0 || hi < 0;
    }
}
