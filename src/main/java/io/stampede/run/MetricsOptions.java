/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.run;

import io.stampede.metrics.MetricsEndpoint;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Where `stampede run` serves its live figures for Prometheus, if it does, and how long after the run. */
final class MetricsOptions {

    @Mixin
    MetricsEndpoint endpoint;

    @Option(names = "--metrics-linger", paramLabel = "SECONDS",
            description = "With --metrics: keep serving this long after the run, so that Prometheus scrapes the final"
                    + " counts (default: ${DEFAULT-VALUE}).")
    int linger;
}
