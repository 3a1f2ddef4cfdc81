/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.run;

import io.stampede.metrics.RunMetrics;
import java.io.PrintWriter;
import java.util.Optional;
import picocli.CommandLine.Model.CommandSpec;

/** `stampede run --metrics PORT`: the options checked, the endpoint started, and kept a while after the run. */
final class RunMetricsStart {

    private RunMetricsStart() {}

    static void check(MetricsOptions options, CommandSpec spec) {
        try {
            options.endpoint.check(spec, "--metrics-linger");
        } catch (IllegalArgumentException e) {
            throw new RunInputException(e.getMessage());
        }
        if (options.endpoint.enabled() && options.linger < 0) {
            throw new RunInputException("--metrics-linger " + options.linger + ": give 0 or more seconds");
        }
    }

    static Optional<RunMetrics> start(MetricsOptions options, PrintWriter out) {
        try {
            return options.endpoint.start("stampede run", out);
        } catch (IllegalArgumentException e) {
            throw new RunInputException(e.getMessage());
        }
    }

    /** Closes the endpoint, after {@code seconds} when the run ended by itself (not on Ctrl-C). */
    static final class Linger implements AutoCloseable {
        private final Optional<RunMetrics> metrics;
        private final int seconds;
        private final PrintWriter out;
        private boolean wait;

        Linger(Optional<RunMetrics> metrics, int seconds, PrintWriter out) {
            this.metrics = metrics;
            this.seconds = seconds;
            this.out = out;
        }

        void runEnded(boolean interrupted) {
            wait = !interrupted && seconds > 0;
        }

        @Override
        public void close() throws InterruptedException {
            if (metrics.isEmpty()) {
                return;
            }
            if (wait) {
                out.printf("stampede run: serving the final metrics for %d s more (--metrics-linger)%n", seconds);
                out.flush();
                Thread.sleep(seconds * 1000L);
            }
            metrics.get().close();
        }
    }
}
