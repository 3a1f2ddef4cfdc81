/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.run;

import picocli.CommandLine.Option;

/** Where `stampede run` serves its live figures for Prometheus, if it does. */
final class MetricsOptions {

    @Option(names = "--metrics", paramLabel = "PORT",
            description = "Serve the run's figures for Prometheus on http://ADDR:PORT/metrics while it runs (ADDR:"
                    + " --metrics-bind): samples and errors by label and kind, latency histograms, users, connections,"
                    + " schedule lag, JMeter's CPU, GC and event-loop lag (docs/injectors.md).")
    Integer port;

    @Option(names = "--metrics-bind", paramLabel = "ADDR",
            description = "The address --metrics listens on (default: ${DEFAULT-VALUE}, this machine only).")
    String bind = "127.0.0.1";

    @Option(names = "--metrics-linger", paramLabel = "SECONDS",
            description = "With --metrics: keep serving this long after the run, so that Prometheus scrapes the final"
                    + " counts (default: ${DEFAULT-VALUE}).")
    int linger;
}
