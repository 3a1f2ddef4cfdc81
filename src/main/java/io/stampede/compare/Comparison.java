/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.compare;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** The estimates of one configuration against the baseline, for one label or overall. */
public final class Comparison {
    public static final double[] PERCENTILES = {50, 90, 99, 99.9};
    public static final String[] NAMES = {"p50", "p90", "p99", "p99.9"};
    private static final int PERCENTILES_COUNT = 4;
    /**
     * The confidence of the verdict as a whole. It judges five statistics at once (p50, p90, p99, p99.9, req/s),
     * so each interval is at 1 - 0.05/5 = 99 % (Bonferroni): the five are then simultaneous 95 % intervals, and
     * two identical configurations are called different in at most 5 % of comparisons, not in up to 23 %.
     */
    static final double CONFIDENCE = 0.95;
    static final int STATISTICS = PERCENTILES_COUNT + 1;

    private Comparison() {}

    /**
     * @param baseline the baseline's runs (rounds) of this label, each as its windows
     * @param other the other configuration's runs
     * @return p50, p90, p99, p99.9 (µs) and req/s, in that order
     */
    public static List<Estimate> of(List<List<Window>> baseline, List<List<Window>> other, int replicates,
                                    long seed) {
        Bootstrap b = new Bootstrap(List.of(baseline, other), PERCENTILES);
        double[] base = b.whole(baseline);
        double[] value = b.whole(other);
        double[][] baseReps = b.replicate(baseline, replicates, seed);
        double[][] otherReps = b.replicate(other, replicates, seed ^ 0x5DEECE66DL);
        int windows = Math.min(count(baseline), count(other));
        double tail = expandedTail(windows);
        List<Estimate> out = new ArrayList<>();
        for (int k = 0; k <= PERCENTILES.length; k++) {
            double[] diff = new double[replicates];
            double[] ratio = new double[replicates];
            for (int r = 0; r < replicates; r++) {
                diff[r] = otherReps[r][k] - baseReps[r][k];
                ratio[r] = baseReps[r][k] == 0 ? Double.NaN : otherReps[r][k] / baseReps[r][k];
            }
            Arrays.sort(diff);
            Arrays.sort(ratio);
            boolean latency = k < PERCENTILES.length;
            out.add(new Estimate(latency ? NAMES[k] : "req/s", latency, base[k], value[k], quantile(diff, tail),
                    quantile(diff, 100 - tail), quantile(ratio, tail), quantile(ratio, 100 - tail)));
        }
        return out;
    }

    private static int count(List<List<Window>> runs) {
        return runs.stream().mapToInt(List::size).sum();
    }

    /**
     * The lower tail, in percent, of the expanded percentile interval (Hesterberg, "What teachers should know
     * about the bootstrap", 2015) at each statistic's level: a plain percentile interval is too narrow with few
     * resampled units, by the factors sqrt(n/(n-1)) and t(n-1)/z; taking the bootstrap quantiles at
     * Φ(sqrt(n/(n-1))·t) instead of at the nominal tails removes that bias. For 99 % intervals: with 30
     * windows the tails are 0.33 %, with 300 they are 0.48 % (nominal 0.5 %).
     */
    static double expandedTail(int n) {
        if (n < 3) {
            return 0; // the whole bootstrap range: with two windows nothing narrower is honest
        }
        double alpha = (1 - CONFIDENCE) / STATISTICS;
        double t = StudentT.quantile(1 - alpha / 2, n - 1);
        double z = Math.sqrt((double) n / (n - 1)) * t;
        return 100 * StudentT.upperNormalTail(z);
    }

    /** Linear interpolation between order statistics of a sorted array (NaNs sort last and are skipped). */
    static double quantile(double[] sorted, double percent) {
        int n = 0;
        while (n < sorted.length && !Double.isNaN(sorted[n])) {
            n++;
        }
        if (n == 0) {
            return Double.NaN;
        }
        double pos = percent / 100 * (n - 1);
        int i = (int) Math.floor(pos);
        int j = Math.min(n - 1, i + 1);
        return sorted[i] + (pos - i) * (sorted[j] - sorted[i]);
    }
}
