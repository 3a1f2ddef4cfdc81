/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.run;

import io.stampede.results.RunStatistics;
import java.util.Locale;

/** The line printed every few seconds while JMeter runs. */
final class ProgressLine {

    private long lastSamples;
    private long lastNanos;

    ProgressLine(long startNanos) {
        this.lastNanos = startNanos;
    }

    String next(RunStatistics stats, long nowNanos, long startNanos) {
        double seconds = Math.max(1e-3, (nowNanos - lastNanos) / 1e9);
        double rate = (stats.samples() - lastSamples) / seconds;
        lastSamples = stats.samples();
        lastNanos = nowNanos;
        long elapsed = (nowNanos - startNanos) / 1_000_000_000L;
        if (stats.samples() == 0) {
            return String.format(Locale.ROOT, "  %02d:%02d:%02d  JMeter is starting the test (no samples yet)",
                    elapsed / 3600, elapsed / 60 % 60, elapsed % 60);
        }
        String line = String.format(Locale.ROOT,
                "  %02d:%02d:%02d  %,12d samples  %,9.0f req/s  errors %,d (%.2f%%)  threads %,d",
                elapsed / 3600, elapsed / 60 % 60, elapsed % 60, stats.samples(), rate, stats.errors(),
                100 * stats.errorRate(), stats.activeThreads());
        return stats.openConnections() < 0 ? line
                : line + String.format(Locale.ROOT, "  connections %,d", stats.openConnections());
    }
}
