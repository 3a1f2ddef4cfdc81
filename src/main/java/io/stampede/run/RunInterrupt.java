/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.run;

import io.stampede.cli.ExitCodes;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A Ctrl-C (or SIGTERM, SIGHUP) during a run. The JVM runs the stop hook on a thread of its own and halts once the
 * hook returns, so the hook says that the run was interrupted, stops JMeter, and then waits, bounded, for the run's
 * own thread to report what was recorded until then.
 */
final class RunInterrupt {

    /** A summary takes seconds; a dashboard of a long run may not fit, and then the JVM exits without it. */
    static final int REPORT_SECONDS = 150;
    /** What the dashboard may take after an interruption, inside {@link #REPORT_SECONDS}. */
    static final int DASHBOARD_SECONDS = 120;

    private final CountDownLatch reported = new CountDownLatch(1);
    private volatile boolean happened;

    /** Called by the stop hook before it stops JMeter. */
    void begin() {
        happened = true;
    }

    boolean happened() {
        return happened;
    }

    /** The run's thread is done reporting (or gave up): the hook may return and let the JVM exit. */
    void reported() {
        reported.countDown();
    }

    /** Called by the stop hook once JMeter is stopped. */
    void awaitReport() {
        try {
            reported.await(REPORT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** {@code status}, unless the run was interrupted: then the shell's 128 + SIGINT, whatever else happened. */
    int exitCode(int status) {
        return happened ? ExitCodes.INTERRUPTED : status;
    }
}
