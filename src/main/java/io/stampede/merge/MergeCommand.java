/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.merge;

import io.stampede.cli.ExitCodes;
import io.stampede.cli.OutputFolder;
import io.stampede.cli.StampedeRoot;
import io.stampede.jmeter.JMeterCommandLine;
import io.stampede.jmeter.JMeterInstallation;
import io.stampede.jmeter.JMeterStop;
import io.stampede.jmeter.JavaSelection;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** `stampede merge DIR... -o OUT`: the results of the shares of one plan as the results of one run. */
@Command(
        name = "merge",
        mixinStandardHelpOptions = true,
        description = {
            "Merge the results folders of `stampede run --share I/N` (one per injector) into one: the JTL in time "
                    + "order, the latency histograms added up, the summary overall and per injector, each injector's "
                    + "series, and the HTML dashboard.",
            "",
            "Refuses folders of different plans, of other -J properties or of the same share, saying why; nothing is "
                    + "written then. Exit 0 merged, 2 refused, 4 the dashboard failed.",
            ""
        })
public final class MergeCommand implements Callable<Integer> {

    @Parameters(arity = "1..*", paramLabel = "DIR", description = "Results folders of `stampede run --share`.")
    List<Path> dirs;

    @Option(names = {"-o", "--out"}, required = true, paramLabel = "OUT",
            description = "Where to write the merged results (must be new or empty).")
    Path out;

    @Option(names = "--no-dashboard", description = "Skip the HTML dashboard.")
    boolean noDashboard;

    @Option(names = "--window", paramLabel = "SECONDS",
            description = "Length of the summary's windows (default: ${DEFAULT-VALUE}).")
    int windowSeconds = 30;

    @Option(names = "--steady-after", paramLabel = "SECONDS",
            description = "Also report the steady state, as `stampede run --steady-after` does: the windows that start "
                    + "at least this long after the first sample of all shares, merged, and the worst of their p99s.")
    Integer steadyAfter;

    @Spec
    CommandSpec spec;

    /** What the dashboard of a merged run may take. */
    private static final int DASHBOARD_SECONDS = 30 * 60;

    @Override
    public Integer call() throws Exception {
        PrintWriter console = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Path target = out.toAbsolutePath().normalize();
        ShareFolders shares;
        try {
            if (windowSeconds < 1) {
                throw new MergeRefusal("--window " + windowSeconds + ": give at least 1 second");
            }
            if (steadyAfter != null && steadyAfter < 0) {
                throw new MergeRefusal("--steady-after " + steadyAfter + ": give 0 or more seconds");
            }
            checkOut(target);
            shares = ShareFolders.check(dirs);
        } catch (MergeRefusal e) {
            err.println("stampede merge: " + e.getMessage());
            return ExitCodes.BAD_INPUT;
        }
        // Everything goes into a folder of its own beside OUT and becomes OUT only when complete.
        Path staging = Files.createDirectories(target.getParent()).resolve("." + target.getFileName() + ".merging-"
                + ProcessHandle.current().pid());
        try {
            Files.createDirectory(staging);
            Path jtl = staging.resolve("results.jtl");
            JtlMerge.write(shares.folders(), jtl);
            Map<String, Histogram> merged = HistogramMerge.of(shares.folders());
            HistogramMerge.write(merged, staging.resolve("latency.hlog"));
            List<String> summary = new ArrayList<>(MergeReport.lines(shares, jtl, merged, windowSeconds,
                    Optional.ofNullable(steadyAfter), staging));
            int status = ExitCodes.OK;
            if (!noDashboard) {
                console.println("stampede merge: generating the HTML dashboard...");
                console.flush();
                boolean made = dashboard(jtl, staging);
                summary.add("  dashboard  " + (made ? target.resolve("dashboard/index.html")
                        : "NOT generated: see " + target.resolve("dashboard.log")));
                status = made ? ExitCodes.OK : ExitCodes.JMETER_FAILED;
            }
            summary.add("  histogram  " + target.resolve("latency.hlog"));
            summary.add("  jtl        " + target.resolve("results.jtl"));
            Files.write(staging.resolve("summary.txt"), summary);
            Files.deleteIfExists(target); // checked: absent or an empty folder
            Files.move(staging, target, StandardCopyOption.ATOMIC_MOVE);
            summary.forEach(console::println);
            return status;
        } catch (MergeRefusal e) {
            err.println("stampede merge: " + e.getMessage());
            return ExitCodes.BAD_INPUT;
        } finally {
            delete(staging);
        }
    }

    private static void checkOut(Path target) throws IOException {
        String refusal = OutputFolder.refusal("-o", target);
        if (refusal != null) {
            throw new MergeRefusal(refusal);
        }
    }

    private static boolean dashboard(Path jtl, Path dir) throws IOException, InterruptedException {
        JMeterInstallation jmeter = JMeterInstallation.bundled(StampedeRoot.locate());
        List<String> cmd = JMeterCommandLine.dashboard(jmeter, JavaSelection.fromEnvironment(null).choose(false)
                .runtime(), List.of("-Xmx2g"), jtl, dir.resolve("dashboard.log"), dir.resolve("dashboard"), Map.of());
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("jmeter.out").toFile()).start();
        if (!p.waitFor(DASHBOARD_SECONDS, TimeUnit.SECONDS)) {
            JMeterStop.stop(p, 5);
            return false;
        }
        return p.exitValue() == 0 && Files.exists(dir.resolve("dashboard/index.html"));
    }

    private static void delete(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
