/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.run;

import io.stampede.results.JtlTail;
import io.stampede.results.LatencyWindows;
import io.stampede.results.RunStatistics;
import io.stampede.results.Sample;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.function.Consumer;

/** Follows the JTL while JMeter runs and prints a progress line every few seconds. */
final class ProgressPrinter {

    private final PrintWriter out;
    private final InjectorWatch injector;
    private final int everySeconds;
    private final JtlWriteCheck written;

    ProgressPrinter(PrintWriter out, InjectorWatch injector, int everySeconds, JtlWriteCheck written) {
        this.out = out;
        this.injector = injector;
        this.everySeconds = everySeconds;
        this.written = written;
    }

    /**
     * Prints progress until JMeter exits; returns the statistics of every sample in the JTL, which also go into
     * {@code windows}. The write check watches the disk meanwhile and learns how the JTL ended.
     */
    RunStatistics follow(JMeterProcess jmeter, Path jtl, LatencyWindows windows, Consumer<Sample> also)
            throws IOException, InterruptedException {
        RunStatistics stats = new RunStatistics();
        Consumer<Sample> feed = s -> {
            stats.add(s);
            windows.add(s);
            also.accept(s);
        };
        long start = System.nanoTime();
        ProgressLine progress = new ProgressLine(start);
        try (JtlTail tail = new JtlTail(jtl)) {
            while (!jmeter.waitFor(everySeconds)) {
                tail.poll(feed);
                written.sample().ifPresent(out::println);
                injector.sample(stats);
                out.println(progress.next(stats, System.nanoTime(), start));
            }
            tail.poll(feed);
            written.jtlEnded(tail.endsMidRow());
        }
        return stats;
    }
}
