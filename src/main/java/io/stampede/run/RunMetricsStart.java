/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.run;

import io.stampede.metrics.RunMetrics;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;
import picocli.CommandLine.Model.CommandSpec;

/** `stampede run --metrics PORT`: the options checked, the endpoint started, and kept a while after the run. */
final class RunMetricsStart {

    private RunMetricsStart() {}

    static void check(Integer port, String bind, int linger, CommandSpec spec) {
        if (port == null) {
            for (String option : new String[] {"--metrics-bind", "--metrics-linger"}) {
                if (spec.commandLine().getParseResult().hasMatchedOption(option)) {
                    throw new RunInputException(option + " works with --metrics only: add --metrics PORT");
                }
            }
            return;
        }
        if (port < 0 || port > 65535) {
            throw new RunInputException("--metrics " + port + " is not a TCP port: give 1 to 65535 (0: any free port)");
        }
        if (linger < 0) {
            throw new RunInputException("--metrics-linger " + linger + ": give 0 or more seconds");
        }
        try {
            InetAddress.getByName(bind);
        } catch (UnknownHostException e) {
            throw new RunInputException("--metrics-bind " + bind + " is not an address of this machine: give one,"
                    + " e.g. 127.0.0.1 (default) or 0.0.0.0 for every interface");
        }
    }

    static Optional<RunMetrics> start(Integer port, String bind, PrintWriter out) {
        if (port == null) {
            return Optional.empty();
        }
        try {
            RunMetrics m = RunMetrics.start(bind, port);
            out.printf("stampede run: metrics for Prometheus on http://%s:%d/metrics%n", bind, m.port());
            return Optional.of(m);
        } catch (IOException e) {
            throw new RunInputException("--metrics " + port + ": cannot listen on " + bind + ":" + port + " ("
                    + e.getMessage() + "): give a free port, or 0 for any");
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
