/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.SplittableRandom;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** The statistics on synthetic runs whose answer is known. */
class BootstrapTest {

    private static final int WINDOWS = 30;
    private static final int PER_WINDOW = 300;

    /** A run of WINDOWS seconds: 800 µs plus an exponential tail of mean 400 µs, plus {@code shiftUs}. */
    static Series run(long seed, long shiftUs) {
        SplittableRandom r = new SplittableRandom(seed);
        Series.Builder b = new Series.Builder();
        for (int s = 0; s < WINDOWS; s++) {
            for (int i = 0; i < PER_WINDOW; i++) {
                long us = 800 + (long) (-400 * Math.log(1 - r.nextDouble())) + shiftUs;
                b.add(s, us, false);
            }
        }
        return b.build();
    }

    private static List<Estimate> compare(Series a, Series b, Margin unused) {
        return Comparison.of(List.of(a.windows()), List.of(b.windows()), 1000, 7);
    }

    @Test
    void aShiftOfExactlyTwoMillisecondsIsDetectedWithAnIntervalThatContainsIt() {
        // The same draws, every one 2 ms later: the true difference at every percentile is exactly 2 ms.
        Series a = run(1, 0);
        Series b = run(1, 2000);
        List<Estimate> e = compare(a, b, Margin.NONE);
        for (int k = 0; k < 2; k++) { // p50 and p90: enough samples for a tight interval
            Estimate est = e.get(k);
            assertTrue(est.lo() <= 2000 && 2000 <= est.hi(), est.statistic() + " interval contains 2 ms: " + est);
            assertTrue(est.excludesZero(), est.toString());
            assertTrue(est.halfWidth() < 100, "a tight interval (< 0.1 ms) with 9,000 samples: " + est);
        }
        Verdict v = Verdict.of("B", e.get(0), new Margin(1, 50));
        assertTrue(v.significant(), v.text());
        assertTrue(v.text().startsWith("B is 2.0") && v.text().contains("ms slower at p50 (±0.0"), v.text());
    }

    @Test
    void independentDrawsShiftedByTwoMillisecondsGiveIntervalsThatContainTwoInAtLeast90Of100Seeds() {
        int contain = 0;
        for (int seed = 0; seed < 100; seed++) {
            Estimate p50 = Comparison.of(List.of(run(100 + seed, 0).windows()),
                    List.of(run(300 + seed, 2000).windows()), 1000, seed).get(0);
            assertTrue(p50.excludesZero(), p50.toString());
            contain += p50.lo() <= 2000 && 2000 <= p50.hi() ? 1 : 0;
        }
        System.out.printf("independent draws, 2 ms shift: the p50 interval contains 2 ms in %d of 100%n", contain);
        assertTrue(contain >= 90, contain + " of 100");
    }

    @Test
    void aFasterConfigurationIsCalledFaster() {
        Verdict v = Verdict.of("B", compare(run(3, 2000), run(4, 0), Margin.NONE).get(0), Margin.NONE);
        assertTrue(v.significant() && v.text().contains("ms faster at p50"), v.text());
    }

    @Test
    void identicalInputsGiveNoSignificantDifferenceInAtLeast95Of100Seeds() {
        // The overall verdict as the command gives it (any of p50, p90, p99, p99.9, req/s; default margin).
        int quiet = 0;
        int[] perStatistic = new int[5];
        for (int seed = 0; seed < 100; seed++) {
            List<Estimate> e = Comparison.of(List.of(run(1000 + seed, 0).windows()),
                    List.of(run(5000 + seed, 0).windows()), 1000, seed);
            boolean any = false;
            for (int k = 0; k < 5; k++) {
                boolean significant = Verdict.of("B", e.get(k), Margin.DEFAULT).significant();
                perStatistic[k] += significant ? 1 : 0;
                any |= significant;
            }
            quiet += any ? 0 : 1;
        }
        System.out.printf("identical inputs: no significant difference in %d of 100 (called different at p50 %d, "
                + "p90 %d, p99 %d, p99.9 %d, req/s %d)%n", quiet, perStatistic[0], perStatistic[1], perStatistic[2],
                perStatistic[3], perStatistic[4]);
        assertTrue(quiet >= 95, quiet + " of 100");
    }

    @Test
    void withoutAMarginIdenticalPairsAreCalledDifferentInAtMostAboutFivePercent() {
        // The statistics alone: simultaneous 95 % intervals leave out the true difference (0) of at least one
        // statistic in about 5 % of pairs (fewer: the five are correlated); 200 more seeds.
        int wrong = 0;
        for (int seed = 0; seed < 200; seed++) {
            List<Estimate> e = Comparison.of(List.of(run(20_000 + seed, 0).windows()),
                    List.of(run(40_000 + seed, 0).windows()), 500, seed);
            wrong += e.stream().anyMatch(Estimate::excludesZero) ? 1 : 0;
        }
        System.out.printf("identical inputs, some interval excludes 0 (no margin): %d of 200%n", wrong);
        assertTrue(wrong <= 16, wrong + " of 200");
    }

    @Test
    void thePointEstimateIsHdrHistogramsOwnPercentile() {
        Series a = run(11, 0);
        Bootstrap b = new Bootstrap(List.of(List.of(a.windows())), Comparison.PERCENTILES);
        double[] whole = b.whole(List.of(a.windows()));
        Histogram h = a.histogram();
        for (int k = 0; k < Comparison.PERCENTILES.length; k++) {
            assertEquals(h.getValueAtPercentile(Comparison.PERCENTILES[k]), whole[k], 0.0,
                    "p" + Comparison.PERCENTILES[k]);
        }
        assertEquals(PER_WINDOW, whole[Comparison.PERCENTILES.length], 1e-9, "req/s = samples per window");
    }

    @Test
    void roundsWidenTheIntervalWhenRunsDisagree() {
        // Two rounds per configuration whose medians differ by 300 µs from run to run: the nested bootstrap
        // must see that noise, where one run alone would not.
        List<List<Window>> a = List.of(run(21, 0).windows(), run(22, 300).windows());
        List<List<Window>> b = List.of(run(23, 0).windows(), run(24, 300).windows());
        Estimate nested = Comparison.of(a, b, 1000, 1).get(0);
        Estimate single = Comparison.of(List.of(run(21, 0).windows()), List.of(run(23, 0).windows()), 1000, 1)
                .get(0);
        assertTrue(nested.halfWidth() > 2 * single.halfWidth(), nested + " vs " + single);
        assertFalse(nested.excludesZero(), nested.toString());
    }

    @Test
    void aMarginKeepsTinyDifferencesFromBeingCalledSignificant() {
        Estimate tiny = new Estimate("p50", true, 1000, 1004, 2, 6, 1.002, 1.006);
        assertTrue(Verdict.of("B", tiny, Margin.NONE).significant());
        Verdict v = Verdict.of("B", tiny, new Margin(2, 50));
        assertFalse(v.significant());
        assertTrue(v.text().contains("no significant difference at p50 (+0.004 ms ±0.002, under the margin)"),
                v.text());
    }
}
