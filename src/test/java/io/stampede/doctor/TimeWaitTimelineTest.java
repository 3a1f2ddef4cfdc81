/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.doctor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class TimeWaitTimelineTest {

    @Test
    void failuresAreMatchedWithTheTickThatCountedThemAndTheOneBefore() {
        TimeWaitTimeline t = new TimeWaitTimeline(1);
        t.tick(5, 0);
        t.tick(40, 0);
        t.tick(90, 3);    // failures first counted here: TIME_WAIT 40 (tick before) or 90
        t.tick(120, 3);
        t.tick(16227, 3); // the injector closing its connections at the end: no new failure
        TimeWaitTrend trend = t.trend(3);
        assertEquals(1, trend.before());
        assertEquals(16227, trend.peak());
        assertEquals(OptionalLong.of(90), trend.atFailures());
    }

    @Test
    void failuresReadOnlyAfterTheLastTickBelongToTheLastTicks() {
        TimeWaitTimeline t = new TimeWaitTimeline(0);
        t.tick(10, 0);
        t.tick(300, 0);
        t.tick(20, 0);
        assertEquals(OptionalLong.of(300), t.trend(2).atFailures());
        assertEquals(OptionalLong.empty(), t.trend(0).atFailures());
    }

    @Test
    void theCountAfterTheRunRaisesThePeakButIsNotMatchedWithFailures() {
        TimeWaitTimeline t = new TimeWaitTimeline(1);
        t.tick(30, 6);
        t.afterRun(16227);
        TimeWaitTrend trend = t.trend(253);
        assertEquals(16227, trend.peak());
        assertEquals(OptionalLong.of(30), trend.atFailures());
    }

    @Test
    void noTicksMeansOnlyTheCountBefore() {
        TimeWaitTimeline t = new TimeWaitTimeline(7);
        assertEquals(new TimeWaitTrend(7, 7, OptionalLong.of(7)), t.trend(1));
        assertEquals(new TimeWaitTrend(7, 7, OptionalLong.empty()), t.trend(0));
        assertThrows(IllegalArgumentException.class, () -> new TimeWaitTimeline(-1));
    }

    @Test
    void severalBurstsTakeTheHighestCountAtAnyOfThem() {
        TimeWaitTimeline t = new TimeWaitTimeline(0);
        t.tick(400, 5);
        t.tick(10, 5);
        t.tick(30, 9);
        assertEquals(OptionalLong.of(400), t.trend(9).atFailures());
        assertEquals(400, t.trend(9).peak());
    }
}
