/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.compare;

import io.stampede.blocking.AccessLogException;
import io.stampede.blocking.BlockingTimeReport;
import io.stampede.blocking.BlockingTimes;
import io.stampede.cli.ExitCodes;
import io.stampede.cli.OutputFolder;
import io.stampede.jmeter.JMeterPropertiesOption;
import io.stampede.run.RunCommand;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** `stampede compare`: result folders side by side, or a plan run against several targets in interleaved rounds. */
@Command(
        name = "compare",
        mixinStandardHelpOptions = true,
        description = {
            "Compare runs side by side: req/s, errors by kind, p50/p90/p99/p99.9/max (corrected where recorded) "
                    + "per label and overall, each against the first (the baseline) with a 95 %% confidence "
                    + "interval and a verdict, the injector's own share, and an HTML page with the percentile "
                    + "spectrum and throughput/p99 over time.",
            "",
            "  stampede compare A B [C...] [-o DIR]      result folders of `stampede run` (A1,A2 = rounds of one)",
            "  stampede compare --plan PLAN --target NAME=HOST:PORT --target NAME2=HOST:PORT [--rounds N] [-o DIR]",
            "                                            runs the plan against each target in interleaved rounds",
            "",
            "Bad input (a folder that is not a run, --rounds 0, a malformed --target) is refused before anything "
                    + "is written; with --plan, a failed run stops the rounds with that run's own status.",
            ""
        })
public final class CompareCommand implements Callable<Integer> {

    @Parameters(paramLabel = "FOLDER", arity = "0..*",
            description = "Result folders of `stampede run`; the first is the baseline. FOLDER1,FOLDER2 makes "
                    + "one configuration of several rounds.")
    List<String> folders = new ArrayList<>();

    @Option(names = {"-o", "--out"}, paramLabel = "DIR",
            description = "Where to write compare.txt and compare.html (new or empty; with --plan also the runs). "
                    + "Default: results/compare-<time>/.")
    Path out;

    @Option(names = "--plan", paramLabel = "PLAN.jmx", description = "Run this plan against every --target.")
    Path plan;

    @Option(names = "--target", paramLabel = "NAME=HOST:PORT",
            description = "With --plan: a configuration to run against; the first is the baseline.")
    List<String> targets = new ArrayList<>();

    @Option(names = "--rounds", paramLabel = "N", description = "With --plan: interleaved rounds (default: ${DEFAULT-VALUE}).")
    int rounds = 3;

    @Mixin
    JMeterPropertiesOption properties;

    @Option(names = "--heap", paramLabel = "SIZE", description = "With --plan: JMeter's heap (default: ${DEFAULT-VALUE}).")
    String heap = "2g";

    @Option(names = "--margin-pct", paramLabel = "PCT",
            description = "Smallest difference a verdict reports, in %% of the baseline (default: ${DEFAULT-VALUE}).")
    double marginPct = Margin.DEFAULT.percent();

    @Option(names = "--margin-ms", paramLabel = "MS",
            description = "... and, for latencies, in ms (default: ${DEFAULT-VALUE}).")
    double marginMs = Margin.DEFAULT.micros() / 1000;

    @Option(names = "--warmup", paramLabel = "SECONDS",
            description = "Leave out the samples of each run's first seconds (default: ${DEFAULT-VALUE}).")
    int warmup;

    @Option(names = "--server-log", paramLabel = "NAME=LOG[,LOG...]",
            description = "nginx blocking-time logs (the rendered `blocking` log_format) of configuration NAME: "
                    + "its blocking time between HAProxy and each realserver is shown beside the latencies.")
    List<String> serverLogs = new ArrayList<>();

    @Option(names = "--replicates", paramLabel = "N", description = "Bootstrap resamples (default: ${DEFAULT-VALUE}).")
    int replicates = CompareSettings.DEFAULT_REPLICATES;

    @Option(names = "--seed", paramLabel = "N", description = "Seed of the resampling (default: ${DEFAULT-VALUE}).")
    long seed = 1;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter stderr = spec.commandLine().getErr();
        CompareSettings settings;
        Path dir;
        try {
            settings = settings();
            dir = outputFolder();
            if (plan != null) {
                Rounds.Input input = roundsInput();
                Map<String, BlockingTimes> blocking = serverLogs(input.targets().stream().map(NamedTarget::name)
                        .toList());
                return new Rounds(input, dir, settings, stdout, stderr, blocking).run();
            }
            List<Configuration> configs = readFolders();
            write(configs, settings, dir, stdout, serverLogs(configs.stream().map(Configuration::name).toList()));
            return ExitCodes.OK;
        } catch (CompareInputException e) {
            stderr.println("stampede compare: " + e.getMessage());
            stderr.flush();
            return ExitCodes.BAD_INPUT;
        }
    }

    private CompareSettings settings() throws CompareInputException {
        if (marginPct < 0 || marginMs < 0) {
            throw new CompareInputException("--margin-pct/--margin-ms cannot be negative: give 0 for no margin");
        }
        if (replicates < 100) {
            throw new CompareInputException("--replicates " + replicates + ": give at least 100");
        }
        if (warmup < 0) {
            throw new CompareInputException("--warmup " + warmup + ": give 0 or more seconds");
        }
        return new CompareSettings(replicates, seed, new Margin(marginPct, marginMs * 1000), warmup);
    }

    private Path outputFolder() throws CompareInputException, IOException {
        Path dir = (out != null ? out : Path.of("results", "compare-"
                + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"))))
                .toAbsolutePath().normalize();
        String refusal = OutputFolder.refusal("-o", dir);
        if (refusal != null) {
            throw new CompareInputException(refusal);
        }
        return dir;
    }

    private List<Configuration> readFolders() throws CompareInputException, IOException {
        if (!targets.isEmpty() || properties.values().size() > 0) {
            throw new CompareInputException("--target and -J need --plan: give --plan PLAN.jmx, or compare folders");
        }
        if (folders.size() < 2) {
            throw new CompareInputException("give at least two result folders (the first is the baseline), or "
                    + "--plan PLAN.jmx with two --target; got " + folders.size());
        }
        List<Configuration> configs = new ArrayList<>();
        Set<String> names = new LinkedHashSet<>();
        for (String arg : folders) {
            List<RunData> runs = new ArrayList<>();
            String[] parts = arg.split(",");
            String name = uniqueName(Path.of(parts[0]).toAbsolutePath().normalize().getFileName() + "", names);
            for (int i = 0; i < parts.length; i++) {
                runs.add(RunFolder.read(Path.of(parts[i]), parts.length == 1 ? name : name + " round " + (i + 1),
                        warmup));
            }
            configs.add(new Configuration(name, runs));
        }
        return configs;
    }

    /** The --server-log files by configuration name, read (and refused) before anything runs or is written. */
    private Map<String, BlockingTimes> serverLogs(List<String> names) throws CompareInputException, IOException {
        Map<String, BlockingTimes> m = new LinkedHashMap<>();
        for (String spec : serverLogs) {
            int eq = spec.indexOf('=');
            String name = eq > 0 ? spec.substring(0, eq) : "";
            if (!names.contains(name) || eq == spec.length() - 1) {
                throw new CompareInputException("--server-log " + spec + ": give NAME=LOG[,LOG...] with NAME one of "
                        + names);
            }
            List<Path> logs = new ArrayList<>();
            for (String f : spec.substring(eq + 1).split(",")) {
                logs.add(Path.of(f));
            }
            try {
                m.put(name, BlockingTimes.read(logs));
            } catch (AccessLogException e) {
                throw new CompareInputException("--server-log " + spec + ": " + e.getMessage());
            }
        }
        return m;
    }

    private static String uniqueName(String name, Set<String> taken) {
        String n = name;
        for (int i = 2; !taken.add(n); i++) {
            n = name + "#" + i;
        }
        return n;
    }

    private Rounds.Input roundsInput() throws CompareInputException {
        if (!folders.isEmpty()) {
            throw new CompareInputException("give either result folders or --plan, not both (got " + folders + ")");
        }
        if (rounds < 1) {
            throw new CompareInputException("--rounds " + rounds + ": give at least 1 (3 or more for an interval "
                    + "across rounds)");
        }
        if (!Files.isRegularFile(plan)) {
            throw new CompareInputException("--plan " + plan + ": no such file (give a .jmx plan, e.g. "
                    + "plans/paced.jmx)");
        }
        List<NamedTarget> parsed = new ArrayList<>();
        Set<String> names = new LinkedHashSet<>();
        for (String t : targets) {
            NamedTarget nt = NamedTarget.parse(t);
            if (!names.add(nt.name())) {
                throw new CompareInputException("--target " + t + ": the name " + nt.name() + " is given twice");
            }
            parsed.add(nt);
        }
        if (parsed.size() < 2) {
            throw new CompareInputException("--plan needs at least two --target NAME=HOST:PORT (got "
                    + parsed.size() + ")");
        }
        if (!heap.matches("\\d+[kKmMgG]?")) {
            throw new CompareInputException("--heap " + heap + ": give a size such as 2g or 1536m");
        }
        return new Rounds.Input(plan, parsed, rounds, properties.values(), heap);
    }

    static void write(List<Configuration> configs, CompareSettings settings, Path dir, PrintWriter stdout,
                      Map<String, BlockingTimes> blocking) throws IOException {
        List<String> verdicts = new ArrayList<>();
        List<String> text = TextReport.lines(configs, settings, verdicts);
        if (!blocking.isEmpty()) {
            text.add("");
            text.add("blocking time between HAProxy and the realservers (--server-log):");
            blocking.forEach((name, b) -> {
                text.add("  " + name);
                BlockingTimeReport.lines(b).stream().skip(1).forEach(l -> text.add("  " + l));
            });
        }
        String html = HtmlReport.page(configs, text, verdicts);
        Files.createDirectories(dir);
        Files.write(dir.resolve("compare.txt"), text);
        Files.writeString(dir.resolve("compare.html"), html);
        text.forEach(stdout::println);
        stdout.printf(Locale.ROOT, "  report     %s%n  page       %s%n", dir.resolve("compare.txt"),
                dir.resolve("compare.html"));
        stdout.flush();
    }

    /** Runs `stampede run` in this JVM, as its own command line would. */
    static int runOnce(List<String> args, PrintWriter stdout, PrintWriter stderr) {
        CommandLine run = ExitCodes.apply(new CommandLine(new RunCommand())).setOut(stdout).setErr(stderr);
        return run.execute(args.toArray(String[]::new));
    }
}
