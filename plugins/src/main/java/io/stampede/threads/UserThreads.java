/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.threads;

import org.apache.jmeter.threads.JMeterThread;

/** Stopping and joining the virtual threads a Virtual User Thread Group runs its users on. */
final class UserThreads {

    private UserThreads() {}

    /** Tells a user to stop after its sample, or at once ({@code interrupt}: its thread is interrupted too). */
    static void stop(JMeterThread user, Thread thread, boolean interrupt) {
        user.stop();
        user.interrupt();
        if (interrupt) {
            thread.interrupt();
        }
    }

    /**
     * Joins {@code t} for {@code millis} (0: until it ends, waking every {@code step} ms so an interrupt is seen);
     * whether it has ended.
     */
    static boolean joined(Thread t, long step, long millis) {
        if (t == null) {
            return true;
        }
        try {
            if (millis == 0) {
                while (t.isAlive()) {
                    t.join(step);
                }
            } else {
                t.join(millis);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return !t.isAlive();
    }
}
