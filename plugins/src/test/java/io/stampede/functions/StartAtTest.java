/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.functions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;

class StartAtTest {

    /** A wall clock that reads {@code readings} in turn (then the last one), counting its reads. */
    private static final class SteppedClock implements LongSupplier {
        private final ArrayDeque<Long> readings;
        private long last;
        final AtomicInteger reads = new AtomicInteger();

        SteppedClock(Long... readings) {
            this.readings = new ArrayDeque<>(List.of(readings));
        }

        @Override
        public long getAsLong() {
            reads.incrementAndGet();
            if (!readings.isEmpty()) {
                last = readings.poll();
            }
            return last;
        }
    }

    @Test
    void waitsUntilTheWallClockReachesTheStart() throws Exception {
        // ready at 1,000, start at 1,300: the clock is read again after each short sleep until it reaches the start
        SteppedClock clock = new SteppedClock(1_000L, 1_100L, 1_250L, 1_300L);
        assertEquals(0, StartAt.awaitStart(1_300, clock));
        assertEquals(4, clock.reads.get());
    }

    @Test
    void aJMeterReadyAfterTheStartStartsAtOnceAndSaysHowLate() throws Exception {
        SteppedClock clock = new SteppedClock(1_750L);
        assertEquals(450, StartAt.awaitStart(1_300, clock));
        assertEquals(1, clock.reads.get());
    }

    @Test
    void theElementHoldsTheTestStartUntilItsMoment() {
        StartAt element = new StartAt();
        long start = System.currentTimeMillis() + 400;
        element.setEpochMillis(start);
        element.testStarted();
        assertTrue(System.currentTimeMillis() >= start, "testStarted returned before the start time");
    }
}
