/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Waiting for a line in a log that another process writes, such as jmeter.log while a test starts. */
public final class LogFiles {
    private static final long POLL_MILLIS = 200;

    private LogFiles() {
    }

    /** Returns once {@code log} holds {@code text}; fails naming the log after {@code seconds}. */
    public static void awaitText(Path log, String text, int seconds) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        while (System.nanoTime() < deadline) {
            if (Files.exists(log) && Files.readString(log).contains(text)) {
                return;
            }
            Thread.sleep(POLL_MILLIS);
        }
        throw new IllegalStateException("JMeter did not log '" + text + "' within " + seconds + " s; see " + log);
    }
}
