/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.jmeter;

import java.util.concurrent.TimeUnit;

/** Ends a JMeter process the CLI started, with the processes it started in turn. */
public final class ProcessStop {

    private ProcessStop() {
    }

    /** Asks the process tree to stop, and kills the process if it is still there after {@code graceSeconds}. */
    public static void stop(Process p, int graceSeconds) {
        p.descendants().forEach(ProcessHandle::destroy);
        p.destroy();
        try {
            if (!p.waitFor(graceSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
