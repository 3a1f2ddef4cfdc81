/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.run;

import io.stampede.results.JtlTail;
import io.stampede.results.RunStatistics;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;

/** Follows the JTL while JMeter runs and prints a progress line every few seconds. */
final class ProgressPrinter {

    private final PrintWriter out;
    private final InjectorWatch injector;
    private final int everySeconds;

    ProgressPrinter(PrintWriter out, InjectorWatch injector, int everySeconds) {
        this.out = out;
        this.injector = injector;
        this.everySeconds = everySeconds;
    }

    /** Prints progress until JMeter exits; returns the statistics of every sample in the JTL. */
    RunStatistics follow(JMeterProcess jmeter, Path jtl) throws IOException, InterruptedException {
        RunStatistics stats = new RunStatistics();
        long start = System.nanoTime();
        ProgressLine progress = new ProgressLine(start);
        try (JtlTail tail = new JtlTail(jtl)) {
            while (!jmeter.waitFor(everySeconds)) {
                tail.poll(stats::add);
                injector.sample();
                out.println(progress.next(stats, System.nanoTime(), start));
            }
            tail.poll(stats::add);
        }
        return stats;
    }
}
