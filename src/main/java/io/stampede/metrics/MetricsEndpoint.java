/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.metrics;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * Where a command serves its live figures for Prometheus, if it does ({@code --metrics PORT}, {@code --metrics-bind
 * ADDR}): `stampede run` for its run, `stampede server` for the runs its engine executes.
 */
public final class MetricsEndpoint {

    @Option(names = "--metrics", paramLabel = "PORT",
            description = "Serve live figures for Prometheus on http://ADDR:PORT/metrics (ADDR: --metrics-bind):"
                    + " samples and errors by label and kind, latency histograms, users, connections, schedule lag,"
                    + " JMeter's CPU, GC and event-loop lag (docs/injectors.md). Port 0: any free port.")
    Integer port;

    @Option(names = "--metrics-bind", paramLabel = "ADDR",
            description = "The address --metrics listens on (default: ${DEFAULT-VALUE}, this machine only).")
    String bind = "127.0.0.1";

    /** Whether --metrics was given. */
    public boolean enabled() {
        return port != null;
    }

    /**
     * Checks the options before anything starts; {@code dependents} are the command's own options that need
     * --metrics too.
     *
     * @throws IllegalArgumentException naming the option and the fix
     */
    public void check(CommandSpec spec, String... dependents) {
        if (port == null) {
            for (String option : dependents) {
                if (spec.commandLine().getParseResult().hasMatchedOption(option)) {
                    throw new IllegalArgumentException(option + " works with --metrics only: add --metrics PORT");
                }
            }
            if (spec.commandLine().getParseResult().hasMatchedOption("--metrics-bind")) {
                throw new IllegalArgumentException("--metrics-bind works with --metrics only: add --metrics PORT");
            }
            return;
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("--metrics " + port + " is not a TCP port: give 1 to 65535 (0: any free"
                    + " port)");
        }
        try {
            InetAddress.getByName(bind);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("--metrics-bind " + bind + " is not an address of this machine: give"
                    + " one, e.g. 127.0.0.1 (default) or 0.0.0.0 for every interface");
        }
    }

    /**
     * Starts serving, when --metrics was given, and says where ({@code command}: the console lines' prefix).
     *
     * @throws IllegalArgumentException when the port cannot be listened on, with the fix
     */
    public Optional<RunMetrics> start(String command, PrintWriter out) {
        if (port == null) {
            return Optional.empty();
        }
        try {
            RunMetrics m = RunMetrics.start(bind, port);
            out.printf("%s: metrics for Prometheus on http://%s:%d/metrics%n", command, bind, m.port());
            return Optional.of(m);
        } catch (IOException e) {
            throw new IllegalArgumentException("--metrics " + port + ": cannot listen on " + bind + ":" + port + " ("
                    + e.getMessage() + "): give a free port, or 0 for any");
        }
    }
}
