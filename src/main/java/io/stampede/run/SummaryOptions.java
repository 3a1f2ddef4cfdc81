/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.run;

import java.util.Optional;
import picocli.CommandLine.Option;

/** What `stampede run` prints and writes about a run: progress, the per-window table, the steady state, dashboard. */
final class SummaryOptions {

    @Option(names = "--no-dashboard", description = "Skip the HTML dashboard (the JTL is still written).")
    boolean noDashboard;

    @Option(names = "--window", paramLabel = "SECONDS",
            description = "Length of the windows in the summary's per-window table of req/s and latency percentiles "
                    + "(default: ${DEFAULT-VALUE}).")
    int windowSeconds = 30;

    @Option(names = "--steady-after", paramLabel = "SECONDS",
            description = "Also report the steady state: the windows that start at least this long after the first "
                    + "sample (once the ramp-up is over), merged, and the worst of their p99s.")
    Integer steadyAfter;

    @Option(names = "--progress-every", paramLabel = "SECONDS",
            description = "Seconds between progress lines (default: ${DEFAULT-VALUE}).")
    int progressEvery = 5;

    /** @throws RunInputException naming the option and the fix */
    void check() {
        if (progressEvery < 1) {
            throw new RunInputException("--progress-every " + progressEvery + ": give at least 1 second");
        }
        if (windowSeconds < 1) {
            throw new RunInputException("--window " + windowSeconds + ": give at least 1 second");
        }
        if (steadyAfter != null && steadyAfter < 0) {
            throw new RunInputException("--steady-after " + steadyAfter + ": give 0 or more seconds");
        }
    }

    long windowMillis() {
        return windowSeconds * 1000L;
    }

    Optional<Integer> steadyAfter() {
        return Optional.ofNullable(steadyAfter);
    }
}
