/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.doctor;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * TIME_WAIT to the target sampled at every progress tick of a run, next to how many samples had failed on their
 * connections by then, so that the TIME_WAIT count can be read at the time of the failures rather than at the
 * end of the run (when the injector's own closing of its connections fills TIME_WAIT).
 *
 * <p>Failures reach us through the JTL a little after they happen, so failures first counted at a tick are matched
 * with the TIME_WAIT counts of that tick and the one before it. Fed by one thread.
 */
public final class TimeWaitTimeline {

    private record Tick(long timeWait, long failures) {}

    private final long before;
    private final List<Tick> ticks = new ArrayList<>();
    private long afterRun = -1;

    public TimeWaitTimeline(long before) {
        if (before < 0) {
            throw new IllegalArgumentException("TIME_WAIT count cannot be negative: " + before);
        }
        this.before = before;
    }

    /**
     * @param timeWait TIME_WAIT sockets to the target now
     * @param connectionFailures samples failed on their connections so far (resets, early closes, refusals...)
     */
    public void tick(long timeWait, long connectionFailures) {
        ticks.add(new Tick(timeWait, connectionFailures));
    }

    /**
     * The count once the run is over: it goes into the peak the summary reports, never into the count at the
     * failures (by then it holds the injector's own closing of its connections).
     */
    public void afterRun(long timeWait) {
        afterRun = timeWait;
    }

    /**
     * The trend over the run.
     *
     * @param connectionFailures all connection failures of the run, including those read after the last tick
     *                           (they are matched with the last ticks)
     */
    public TimeWaitTrend trend(long connectionFailures) {
        long peak = before;
        long atFailures = -1;
        long counted = 0;
        long previous = before;
        for (int i = 0; i < ticks.size(); i++) {
            Tick t = ticks.get(i);
            peak = Math.max(peak, t.timeWait());
            boolean last = i == ticks.size() - 1;
            long failures = last ? Math.max(t.failures(), connectionFailures) : t.failures();
            if (failures > counted) {
                atFailures = Math.max(atFailures, Math.max(previous, t.timeWait()));
            }
            counted = Math.max(counted, failures);
            previous = t.timeWait();
        }
        if (ticks.isEmpty() && connectionFailures > 0) {
            atFailures = before;
        }
        peak = Math.max(peak, afterRun);
        return new TimeWaitTrend(before, peak, atFailures < 0 ? OptionalLong.empty() : OptionalLong.of(atFailures));
    }
}
