/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.run;

import io.stampede.injectorhealth.InjectorSeries;
import io.stampede.injectorhealth.InjectorShare;
import io.stampede.distributed.InjectorCollector;
import io.stampede.distributed.RemoteEngine;
import io.stampede.distributed.RemoteEngines;
import io.stampede.results.LatencyHistogramFile;
import io.stampede.results.LatencyWindows;
import io.stampede.results.RunStatistics;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** The end of a run: the summary on the console and in summary.txt, the histogram, and what went wrong. */
final class RunReport {

    /** What Stampede's samplers answer when the test stops under them. */
    private static final String STOPPED_IN_FLIGHT = "Sample interrupted (test stopped)";

    private final PrintWriter out;
    private final RunFiles files;
    private final List<String> summary = new ArrayList<>();

    RunReport(PrintWriter out, RunFiles files) {
        this.out = out;
        this.files = files;
    }

    /** JMeter failed or wrote no sample: the last lines of its console and its log's errors, to stderr. */
    static void jmeterFailed(PrintWriter err, RunFiles files, int exit, long samples, String heap) {
        err.printf("stampede run: JMeter %s (exit %d, %d samples). Last lines of %s:%n",
                exit != 0 ? "failed" : "produced no samples", exit, samples, files.console().getFileName());
        JMeterOutput.tail(files.console(), 15).forEach(l -> err.println("  | " + l));
        JMeterOutput.errors(files.log(), 10).forEach(l -> err.println("  ! " + l));
        if (JMeterOutput.ranOutOfMemory(files.console(), files.log())) {
            err.printf("stampede run: JMeter ran out of memory with --heap %s: give it more (e.g. --heap %s), or run"
                    + " fewer users per engine%n", heap, JMeterOutput.doubled(heap));
        }
        err.flush();
    }

    /**
     * Prints the summary: throughput, latencies, errors by kind, the histogram's percentiles, the per-window table
     * (and the steady state after {@code steadyAfterSeconds}), the diagnosis.
     */
    void summarize(String title, RunStatistics stats, LatencyWindows windows, Optional<Integer> steadyAfterSeconds,
                   InjectorWatch injector) throws IOException {
        summary.add(title);
        summary.addAll(RunSummary.lines(stats));
        LatencyHistogramFile.write(files.histogram(), stats, stats.firstStartMillis(),
                stats.firstStartMillis() + stats.spanMs());
        summary.add("  from " + files.histogram().getFileName()
                + " (us resolution where the samplers wrote stampede_elapsed_us):");
        summary.addAll(LatencyHistogramFile.summaryLines(LatencyHistogramFile.read(files.histogram())));
        summary.addAll(windows.lines());
        steadyAfterSeconds.ifPresent(s -> summary.add(windows.steadyLine(s * 1000L)));
        injector.diagnose(stats).lines().forEach(l -> summary.add("  " + l));
        InjectorShare share = InjectorShare.of(stats.scheduleLag(), InjectorSeries.readIfPresent(files.dir()),
                stats.spanMs());
        for (String l : share.line().split("\n")) {
            summary.add("  " + l.strip());
        }
        summary.forEach(out::println);
    }

    /**
     * Says, on the console and in summary.txt, that the plan was cut short and what the summary covers, and how many
     * of its errors are Stampede's samples that the stop cut in flight (JMeter's own samplers say it otherwise).
     */
    void interrupted(RunStatistics stats) {
        line(String.format(Locale.ROOT, "  INTERRUPTED by Ctrl-C after %.1f s: the plan did not finish; this summary"
                + " covers the %,d samples JMeter recorded before it stopped", stats.spanMs() / 1000.0,
                stats.samples()));
        long cut = stats.errorsByCode().entrySet().stream().filter(e -> e.getKey().contains(STOPPED_IN_FLIGHT))
                .mapToLong(Map.Entry::getValue).sum();
        if (cut > 0) {
            line(String.format(Locale.ROOT, "  of its errors, %,d are samples in flight when JMeter stopped (%s)", cut,
                    STOPPED_IN_FLIGHT));
        }
    }

    /**
     * Each remote engine's own share, from the series its monitor sent (injector-HOST_PORT.csv); an engine that
     * sent none is said to be someone else's in one line.
     */
    void engines(RemoteEngines engines, long runMillis) throws IOException {
        for (RemoteEngine e : engines.engines()) {
            Optional<long[]> delivery = InjectorCollector.delivery(files.dir(), e);
            line(delivery.map(d -> "  engine " + e + " samples: " + d[0] + " sent, " + d[1] + " dropped"
                    + (d[2] > 0 ? ", " + d[2] + " unconfirmed" : "")
                    + (d[1] > 0 ? " (queue full or the controller did not answer; see the engine's log)" : "")
                    + (d[2] > 0 ? " (unconfirmed: calls the controller did not answer within 30 s; they are in the"
                            + " JTL if it read them later)" : ""))
                    .orElse("  engine " + e + " samples: no count from its sender (dropped samples, if any, are"
                            + " only in the engine's log)"));
            Path file = InjectorCollector.file(files.dir(), e);
            Optional<InjectorSeries> series = InjectorSeries.readFile(file);
            if (series.isEmpty()) {
                line("  engine " + e + ": no injector series: not started by `stampede server` (a user's own"
                        + " jmeter-server?), or it could not reach this controller");
                continue;
            }
            InjectorShare share = new InjectorShare(0, 0, 0, series, runMillis);
            for (String l : share.line().split("\n")) {
                line("  engine " + e + " " + l.strip());
            }
            line("  engine " + e + " series " + file.getFileName());
        }
    }

    /** One more line of the summary, printed and kept for summary.txt. */
    void line(String line) {
        summary.add(line);
        out.println(line);
    }

    /** Writes summary.txt: the same lines as printed. */
    void write() throws IOException {
        Files.write(files.summary(), summary);
    }
}
