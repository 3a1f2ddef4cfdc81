/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.threads;

import java.util.function.BooleanSupplier;
import java.util.function.IntConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The starter of a Virtual User Thread Group: starts each user when the schedule says it is due, so no user's plan
 * is copied before then. A user that cannot be made or started (an element of the plan whose copy fails, say) fails
 * alone: it is logged (the first failure with its stack trace) and the other users still start. Running out of
 * memory is not a user's failure: it stops the arrivals and the test, naming the setting to change.
 */
final class UserArrivals implements Runnable {
    private static final Logger log = LoggerFactory.getLogger(VirtualUserThreadGroup.class);

    private final String group;
    private final UserSchedule schedule;
    private final long startMillis;
    private final BooleanSupplier running;
    private final IntConsumer startUser;
    private final Runnable outOfMemory;

    /**
     * @param group the group as messages name it
     * @param startMillis the group's start (System.currentTimeMillis()), which the schedule's offsets count from
     * @param running whether users should still start
     * @param startUser starts user N (0-based); throws if it cannot
     * @param outOfMemory stops the group and the test
     */
    UserArrivals(String group, UserSchedule schedule, long startMillis, BooleanSupplier running,
                 IntConsumer startUser, Runnable outOfMemory) {
        this.group = group;
        this.schedule = schedule;
        this.startMillis = startMillis;
        this.running = running;
        this.startUser = startUser;
        this.outOfMemory = outOfMemory;
    }

    @Override
    public void run() {
        int started = 0;
        int failed = 0;
        try {
            for (int i = 0; running.getAsBoolean() && i < schedule.users(); i++) {
                long wait = startMillis + schedule.startOffset(i) - System.currentTimeMillis();
                if (wait > 0) {
                    Thread.sleep(wait);
                }
                if (!running.getAsBoolean()) {
                    break;
                }
                if (startAlone(i, failed)) {
                    started++;
                } else {
                    failed++;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (OutOfMemoryError e) {
            // Drop what the failed user held first, then say which setting to change; a hanging test helps nobody.
            log.error("{}: out of memory (java.lang.OutOfMemoryError: {}) after starting {} of {} users; give JMeter"
                    + " a larger heap (stampede run --heap, or HEAP=\"-Xms... -Xmx...\" for bin/jmeter) or run fewer"
                    + " users per engine", group, e.getMessage(), started, schedule.users());
            outOfMemory.run();
        }
        if (failed > 0) {
            log.error("{}: {} users started, {} could not start (see the errors above)", group, started, failed);
        } else {
            log.info("{}: {} users started", group, started);
        }
    }

    private boolean startAlone(int index, int failedBefore) {
        try {
            startUser.accept(index);
            return true;
        } catch (OutOfMemoryError e) {
            throw e;
        } catch (RuntimeException | Error e) {
            String what = group + ": user " + (index + 1) + " could not start: " + e;
            if (failedBefore == 0) {
                log.error(what, e);
            } else {
                log.error(what);
            }
            return false;
        }
    }
}
