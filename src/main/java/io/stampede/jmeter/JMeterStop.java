/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.jmeter;

import java.util.concurrent.TimeUnit;

/** Ends a JMeter process the CLI started, and whatever it started, politely first. */
public final class JMeterStop {

    private JMeterStop() {}

    /** SIGTERM to the process and its descendants; SIGKILL if it has not ended after {@code graceSeconds}. */
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
