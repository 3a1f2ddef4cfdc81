/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.run;

import io.stampede.cli.CliNames;
import io.stampede.cli.ExitCodes;
import io.stampede.distributed.EngineClassFailures;
import io.stampede.distributed.InjectorCollector;
import io.stampede.distributed.RemoteEngines;
import io.stampede.metrics.RunMetrics;
import io.stampede.names.PluginNames;
import io.stampede.plugins.PluginIndex;
import io.stampede.results.LatencyWindows;
import io.stampede.results.RunStatistics;
import io.stampede.share.LoadedPlan;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * One run of `stampede run` once everything is checked: the results folder, JMeter started and followed with
 * progress lines, then the summary, the engines' figures, the dashboard and the exit code.
 */
final class RunExecution {

    /** What the dashboard of a run that was not interrupted may take. */
    private static final int DASHBOARD_SECONDS = 30 * 60;

    private RunCommand.RunSetup setup;
    private final SummaryOptions summary;
    private final MetricsOptions metricsOptions;
    private final String heap;
    /** --out was given (checked to be new or empty), else the default name is claimed. */
    private final boolean outGiven;

    RunExecution(RunCommand.RunSetup setup, SummaryOptions summary, MetricsOptions metricsOptions, String heap,
                 boolean outGiven) {
        this.setup = setup;
        this.summary = summary;
        this.metricsOptions = metricsOptions;
        this.heap = heap;
        this.outGiven = outGiven;
    }

    /** Runs JMeter and reports; the exit code of `stampede run`. */
    int run(RunProperties props, InjectorWatch injector, PrintWriter out, PrintWriter err)
            throws IOException, InterruptedException {
        Optional<RunMetrics> metrics;
        try {
            metrics = RunMetricsStart.start(metricsOptions, out);
        } catch (RunInputException e) {
            err.println("stampede run: " + e.getMessage());
            return ExitCodes.BAD_INPUT;
        }
        try (RunMetricsStart.Linger linger = new RunMetricsStart.Linger(metrics, metricsOptions.linger, out)) {
            return run(props, metrics, injector, linger, out, err);
        }
    }

    private int run(RunProperties props, Optional<RunMetrics> metrics, InjectorWatch injector,
                    RunMetricsStart.Linger linger, PrintWriter out, PrintWriter err)
            throws IOException, InterruptedException {
        // --out was checked to be new or empty; the default name is claimed, since another run may want it too
        Path dir = outGiven ? Files.createDirectories(setup.outDir()) : ResultsFolder.claim(setup.outDir());
        RunFiles files = RunFiles.in(dir, !summary.noDashboard);
        metrics.ifPresent(m -> m.seriesIn(files.dir()));
        if (setup.share() != null) {
            ShareStart started = ShareStart.write(setup, props, dir, out);
            setup = started.setup();
            props = started.properties();
        } else {
            setup = setup.loading(null, LoadedPlan.whole(setup.plan().path(), dir));
        }
        Path planFolder = setup.plan().path().getParent();
        if (!setup.planToLoad().getParent().equals(planFolder)) {
            out.println("stampede run: note: " + planFolder + " is read-only, so JMeter loads its copy of the plan from "
                    + dir + ", and the plan's relative file paths resolve there");
        }
        out.printf("stampede run: %s on JMeter at %s, %s%n", setup.plan().path(), setup.jmeter().home(),
                setup.java());
        if (setup.engines() != null) {
            out.printf("stampede run: distributed over %d engines: %s (%s)%n", setup.engines().size(),
                    setup.engines().jmeterList(), setup.share() == null ? "each runs the whole plan"
                            : "each runs its share of the plan");
        }
        out.printf("stampede run: results in %s%n", files.dir());
        InjectorCollector collector = setup.engines() == null ? null : collector(setup.engines(), files, out);
        RunProperties runProps = collector == null ? props : props.with(PluginNames.INJECTOR_COLLECTOR, collector.url());
        RunInterrupt interrupt = new RunInterrupt();
        JtlWriteCheck written = new JtlWriteCheck(files);
        try (collector; JMeterProcess jmeter = JMeterProcess.start(setup, runProps, files, heap, interrupt, out)) {
            LatencyWindows windows = new LatencyWindows(summary.windowMillis());
            RunStatistics stats = new ProgressPrinter(out, injector, summary.progressEvery, written)
                    .follow(jmeter, files.jtl(), windows, metrics.isPresent() ? metrics.get() : st -> { });
            Optional<String> lost = written.lost(stats.samples());
            // A JMeter that ran out of heap dies in the middle of a row: that is the heap's fault, said below with
            // the --heap hint, not the disk's.
            if (lost.isPresent() && !JMeterOutput.ranOutOfMemory(files.console(), files.log())) {
                err.println(lost.get());
                return interrupt.exitCode(ExitCodes.CANNOT_RUN);
            }
            int exit = jmeter.exitValue();
            List<EngineClassFailures.Failure> lacking = setup.engines() == null ? List.of()
                    : EngineClassFailures.read(JMeterOutput.read(files.console()));
            if (!lacking.isEmpty()) {
                err.print(EngineClassFailures.message(lacking, PluginIndex.bundled(),
                        setup.plan().path().toString()));
                err.flush();
                if (stats.samples() == 0) {
                    return interrupt.exitCode(ExitCodes.JMETER_FAILED);
                }
            }
            if (interrupt.happened() && stats.samples() == 0) {
                err.println("stampede run: interrupted before JMeter recorded a sample: nothing to summarize");
                return ExitCodes.INTERRUPTED;
            }
            if ((exit != 0 && !interrupt.happened()) || stats.samples() == 0) {
                RunReport.jmeterFailed(err, files, exit, stats.samples(), heap);
                return ExitCodes.JMETER_FAILED;
            }
            RunReport report = new RunReport(out, files);
            report.summarize("stampede run: " + setup.plan().path().getFileName() + " against " + props.get(CliNames.HOST)
                    + ":" + props.get(CliNames.PORT) + (interrupt.happened() ? " (INTERRUPTED)" : ""), stats, windows,
                    summary.steadyAfter(), injector);
            if (interrupt.happened()) {
                report.interrupted(stats);
            }
            if (setup.engines() != null) {
                report.engines(setup.engines(), stats.spanMs());
            }
            // the engines that had the plugins ran; the run still failed to be what was asked
            int status = lacking.isEmpty() ? ExitCodes.OK : ExitCodes.JMETER_FAILED;
            if (files.dashboard() != null) {
                out.println("stampede run: generating the HTML dashboard" + (interrupt.happened()
                        ? " from what was recorded (Ctrl-C again to skip it)..." : "..."));
                if (jmeter.generateDashboard(props, files,
                        interrupt.happened() ? RunInterrupt.DASHBOARD_SECONDS : DASHBOARD_SECONDS)) {
                    report.line("  dashboard  " + files.dashboard().resolve("index.html"));
                } else {
                    report.line("  dashboard  NOT generated: see " + files.dashboardLog()
                            + (interrupt.happened() ? " (ended by a second Ctrl-C, or over "
                                    + RunInterrupt.DASHBOARD_SECONDS + " s)" : ""));
                    status = ExitCodes.JMETER_FAILED;
                }
            }
            report.line("  histogram  " + files.histogram());
            report.line("  jtl        " + files.jtl());
            report.write();
            return interrupt.exitCode(status);
        } finally {
            linger.runEnded(interrupt.happened());
            interrupt.reported();
            // the written copy JMeter loaded, never the user's own plan
            if (!setup.planToLoad().equals(setup.plan().path())) {
                Files.deleteIfExists(setup.planToLoad());
            }
        }
    }

    /**
     * The endpoint each engine's injector monitor sends its rows to, on the address the engines call this
     * controller back on; none (said once) when that address is unknown.
     */
    private static InjectorCollector collector(RemoteEngines engines, RunFiles files, PrintWriter out) {
        Optional<String> address = engines.callbackAddress();
        if (address.isEmpty()) {
            out.println("stampede run: no route to the first engine found: the engines' injector series are not"
                    + " collected");
            return null;
        }
        try {
            return InjectorCollector.start(address.get(), files.dir());
        } catch (IOException e) {
            out.println("stampede run: cannot listen for the engines' injector series on " + address.get() + ": "
                    + e.getMessage());
            return null;
        }
    }
}
