/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.run;

import io.stampede.cli.CliNames;
import io.stampede.cli.ExitCodes;
import io.stampede.cli.StampedeRoot;
import io.stampede.doctor.LoadEstimate;
import io.stampede.jmeter.JMeterInstallation;
import io.stampede.jmeter.JavaRuntime;
import io.stampede.jmeter.JavaSelection;
import io.stampede.names.PluginNames;
import io.stampede.plan.HttpRequestEngine;
import io.stampede.plan.PlanException;
import io.stampede.plugins.PluginIndex;
import io.stampede.plugins.PluginsOption;
import io.stampede.distributed.EngineClassFailures;
import io.stampede.distributed.RemoteEngine;
import io.stampede.distributed.InjectorCollector;
import io.stampede.distributed.RemoteEngines;
import io.stampede.distributed.PasswordFile;
import io.stampede.distributed.RmiKeystore;
import io.stampede.results.LatencyWindows;
import io.stampede.results.RunStatistics;
import io.stampede.builtintarget.TargetServer;
import io.stampede.builtintarget.TargetSettings;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** `stampede run PLAN.jmx`: one non-GUI JMeter run with progress, a summary, the JTL and the HTML dashboard. */
@Command(
        name = "run",
        mixinStandardHelpOptions = true,
        description = {
            "Run a JMeter plan in non-GUI mode (jmeter -n -t) on JMeter 5.6.3 with Stampede's samplers.",
            "",
            "Without --host, the built-in target (a small static HTTP server on a free loopback port) is started "
                    + "for the run and stopped afterwards. Progress is printed every few seconds; at the end a "
                    + "summary, and the JTL, the JMeter log and the HTML dashboard are written to --out.",
            "",
            "Exit 0 when the run completed: the summary reports its errors. Ctrl-C stops JMeter and writes the summary, "
                    + "histogram and dashboard of what was recorded, marked INTERRUPTED (exit 130). A results disk that "
                    + "fills up, where JMeter would drop samples silently, is reported with exit 6 and no summary.",
            ""
        })
public final class RunCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "PLAN.jmx", description = "The plan to run, e.g. plans/quickstart.jmx.")
    Path plan;

    @Option(names = "--host", paramLabel = "H",
            description = "Target host, passed to the plan as -J host. Default: the built-in target.")
    String host;

    @Option(names = "--port", paramLabel = "P", description = "Target port, passed as -J port (default 80 with --host).")
    Integer port;

    @Option(names = "-J", paramLabel = "name=value",
            description = "A JMeter property, as with jmeter -J. Stampede plans read host, port, threads, "
                    + "duration (s) and rampup (s).")
    Map<String, String> properties = new LinkedHashMap<>();

    @Option(names = "--engine", paramLabel = "ENGINE",
            description = "Which HTTP Request runs the plan's HTTP Requests: stampede (the Netty engine: each of "
                    + "JMeter's HTTP Requests runs as Stampede's, with the same fields and config elements) or stock "
                    + "(JMeter's own, HttpClient4; also: hc4; a converted plan's Stampede requests run as stock's). "
                    + "The plan file is not changed. Default: ${DEFAULT-VALUE}.")
    String engine = DEFAULT_ENGINE;

    @Option(names = "--out", paramLabel = "DIR",
            description = "Where to write results (must be new or empty). Default: results/<time>-<plan>/.")
    Path out;

    @Option(names = "--jmeter-home", paramLabel = "DIR",
            description = "Use this JMeter installation instead of the bundled JMeter 5.6.3.")
    Path jmeterHome;

    @Option(names = "--install-plugin",
            description = "With --jmeter-home: copy Stampede's jar (and jmeter-plugins casutg) into its lib/ext. "
                    + "Without it they are passed with -Jsearch_paths and the installation is left untouched.")
    boolean installPlugin;

    @Option(names = "--java", paramLabel = "PATH",
            description = "Run JMeter on this Java (a JDK's home or its bin/java). Default: JAVA_HOME, else the "
                    + "Java running stampede; a plan with a Stampede Virtual User Thread Group needs 21+ and, when "
                    + "neither is, the newest 21+ under /usr/lib/jvm and the other usual places is used.")
    Path java;

    @Option(names = "--heap", paramLabel = "SIZE", description = "JMeter's heap, as for -Xmx (default: 2g; for a plan "
            + "with virtual users 512m + 36k per user when that is more).")
    String heap;

    @Option(names = "--no-dashboard", description = "Skip the HTML dashboard (the JTL is still written).")
    boolean noDashboard;

    @Option(names = "--remote", paramLabel = "host[:port],...",
            description = "Run through JMeter's distributed mode (-R) on these engines (`stampede server` on each; "
                    + "port default 1099). Every engine runs the whole plan; their samples come back into one JTL. "
                    + "-J properties are sent to the engines (-G).")
    String remote;

    @Option(names = "--rmi-keystore", paramLabel = "FILE",
            description = "With --remote: RMI over TLS with this keystore, the engines' --ssl-keystore (from "
                    + "`stampede server create-keystore DIR`).")
    Path rmiKeystore;

    @Option(names = "--rmi-password-file", paramLabel = "FILE",
            description = "File (mode 0600) whose first line is the password of --rmi-keystore (default: changeit, as"
                    + " JMeter's create-rmi-keystore). JMeter reads it from a private property file, not -J.")
    Path rmiPasswordFile;

    @Option(names = "--remote-exit", description = "With --remote: the engines exit when the run ends (-X).")
    boolean remoteExit;

    @Option(names = "--server-log", paramLabel = "FILE",
            description = "The target's error log on this machine (e.g. nginx's error.log): what it says during the "
                    + "run (connections reused, refused, out of files) goes into the diagnosis of failed connections.")
    Path serverLog;

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

    @Mixin
    PluginsOption plugins;

    @Spec
    CommandSpec spec;

    /** What the dashboard of a run that was not interrupted may take. */
    private static final int DASHBOARD_SECONDS = 30 * 60;

    /** docs/http-request.md, "Run unchanged plans", says why (measured in it/bench/RESULTS.md). */
    static final String DEFAULT_ENGINE = "stampede";

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        RunSetup setup;
        try {
            setup = prepare(out);
        } catch (RunInputException | IllegalArgumentException | IllegalStateException e) {
            err.println("stampede run: " + e.getMessage());
            return ExitCodes.BAD_INPUT;
        }
        TargetServer builtIn = null;
        try {
            RunProperties props = setup.properties();
            if (setup.useBuiltInTarget()) {
                builtIn = TargetServer.start(TargetSettings.loopbackDefaults());
                props = props.with(CliNames.HOST, "127.0.0.1")
                        .with(CliNames.PORT, Integer.toString(builtIn.address().getPort()));
                out.printf("stampede run: built-in target on http://127.0.0.1:%d/ (%s)%n",
                        builtIn.address().getPort(), builtIn.transport());
            }
            String targetHost = props.get(CliNames.HOST);
            int targetPort = Integer.parseInt(props.get(CliNames.PORT) == null ? "80" : props.get(CliNames.PORT));
            String unreachable = Reachability.check(targetHost, targetPort, 3000);
            if (unreachable != null) {
                err.printf("stampede run: the target %s:%d is unreachable (%s): start the server, or fix --host/"
                        + "--port%n", targetHost, targetPort, unreachable);
                return ExitCodes.UNREACHABLE;
            }
            for (RemoteEngine engine : setup.engines() == null ? List.<RemoteEngine>of() : setup.engines().engines()) {
                String down = Reachability.check(engine.host(), engine.port(), 3000);
                if (down != null) {
                    err.printf("stampede run: the engine %s is unreachable (%s): start `stampede server --port %d`"
                            + " there, or fix --remote%n", engine, down, engine.port());
                    return ExitCodes.UNREACHABLE;
                }
            }
            InjectorWatch injector = InjectorWatch.start(setup.plan(), props, targetHost, targetPort,
                    Optional.ofNullable(serverLog));
            injector.verdictLines().forEach(out::println);
            return execute(setup, props, injector, out, err);
        } finally {
            if (builtIn != null) {
                builtIn.close();
            }
        }
    }

    private RunSetup prepare(PrintWriter console) throws IOException {
        if (progressEvery < 1) {
            throw new RunInputException("--progress-every " + progressEvery + ": give at least 1 second");
        }
        if (windowSeconds < 1) {
            throw new RunInputException("--window " + windowSeconds + ": give at least 1 second");
        }
        if (steadyAfter != null && steadyAfter < 0) {
            throw new RunInputException("--steady-after " + steadyAfter + ": give 0 or more seconds");
        }
        if (serverLog != null && Files.isDirectory(serverLog)) {
            throw new RunInputException("--server-log " + serverLog + " is a folder: give the server's error log file,"
                    + " e.g. /var/log/nginx/error.log");
        }
        HttpRequestEngine httpEngine = HttpRequestEngine.parse("--engine", engine);
        RemoteEngines engines = remote == null ? null : RemoteEngines.parse(remote);
        if (remoteExit && engines == null) {
            throw new RunInputException("--remote-exit works with --remote only: add --remote host[:port],...");
        }
        RmiKeystore rmiTls = rmiKeystore(engines);
        PlanFile planFile = PlanFile.read(plan);
        Map<String, String> given = new LinkedHashMap<>(properties);
        if (host != null) {
            given.put(CliNames.HOST, host);
        }
        if (port != null) {
            given.put(CliNames.PORT, Integer.toString(port));
        }
        if (host != null && port == null && !given.containsKey(CliNames.PORT)) {
            given.put(CliNames.PORT, "80");
        }
        RunProperties props = RunProperties.of(given);
        planFile.checkSamplers(props);
        boolean builtIn = props.get(CliNames.HOST) == null;
        if (builtIn && engines != null && !engines.allLoopback()) {
            throw new RunInputException("--remote " + remote + ": the built-in target listens on 127.0.0.1, out of"
                    + " reach of engines on other machines; give --host (and --port) of a target they can reach");
        }
        if (!builtIn && !planFile.readsProperty(CliNames.HOST)) {
            console.println("stampede run: note: " + planFile.path().getFileName()
                    + " does not read the `host` property, so --host/-J host do not change where it sends requests");
        }
        Path root = StampedeRoot.locate();
        JMeterInstallation jmeter = jmeterHome == null
                ? JMeterInstallation.bundled(root)
                : JMeterInstallation.user(jmeterHome.toAbsolutePath().normalize(), root, installPlugin);
        EngineSwitch engineSwitch = EngineSwitch.of(httpEngine, planFile, root);
        jmeter = jmeter.withSearchPath(engineSwitch.jar());
        jmeter = plugins.prepare(jmeter, planFile.path(), console, "stampede run");
        Path dir = out != null ? out : Path.of("results",
                LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")) + "-" + planFile.name());
        dir = dir.toAbsolutePath().normalize();
        if (Files.exists(dir)) {
            if (!Files.isDirectory(dir)) {
                throw new RunInputException("--out " + dir + " is a file: give a new or empty folder");
            }
            try (Stream<Path> entries = Files.list(dir)) {
                if (entries.findAny().isPresent()) {
                    throw new RunInputException("--out " + dir + " is not empty: give a new or empty folder, so "
                            + "earlier results are not mixed in");
                }
            }
        }
        if (heap != null && !heap.matches("\\d+[kKmMgG]?")) {
            throw new RunInputException("--heap " + heap + ": give a size such as 2g or 1536m");
        }
        VirtualUsersHeap sized = VirtualUsersHeap.choose(heap, virtualUsers(planFile, props));
        heap = sized.heap();
        if (sized.note() != null) {
            console.println("stampede run: " + sized.note());
        }
        JavaSelection.Choice jvm = JavaSelection.fromEnvironment(java).choose(planFile.hasVirtualUsers());
        if (jvm.note() != null) {
            console.println("stampede run: " + jvm.note());
        }
        console.println("stampede run: " + engineSwitch.line());
        return new RunSetup(planFile, props, jmeter, jvm.runtime(), dir, builtIn, engines, remoteExit, rmiTls);
    }

    /** The controller's keystore for RMI over TLS, or null for plain RMI (or the user's own -J settings). */
    private RmiKeystore rmiKeystore(RemoteEngines engines) {
        if (rmiKeystore == null) {
            if (rmiPasswordFile != null) {
                throw new RunInputException("--rmi-password-file needs --rmi-keystore: give the keystore too");
            }
            return null;
        }
        if (engines == null) {
            throw new RunInputException("--rmi-keystore works with --remote only: add --remote host[:port],...");
        }
        if (!Files.isRegularFile(rmiKeystore)) {
            throw new RunInputException("--rmi-keystore " + rmiKeystore + " is not a file: give the engines' keystore"
                    + " (`stampede server create-keystore DIR` makes one)");
        }
        if (properties.keySet().stream().anyMatch(k -> k.startsWith("server.rmi.ssl."))) {
            throw new RunInputException("--rmi-keystore and -J server.rmi.ssl.* both given: keep --rmi-keystore and"
                    + " --rmi-password-file");
        }
        String password = rmiPasswordFile == null ? "changeit"
                : PasswordFile.read(rmiPasswordFile, "--rmi-password-file");
        return new RmiKeystore(rmiKeystore.toAbsolutePath().normalize(), password);
    }

    /** The plan's virtual users, or 0 when it has none or their number cannot be read before the run. */
    private static long virtualUsers(PlanFile plan, RunProperties props) {
        if (!plan.hasVirtualUsers()) {
            return 0;
        }
        try {
            return LoadEstimate.virtualUsers(plan.tree(), props.values());
        } catch (PlanException e) {
            return 0; // JMeter reports the plan's own problem; the heap stays the default
        }
    }

    private int execute(RunSetup setup, RunProperties props, InjectorWatch injector, PrintWriter out,
            PrintWriter err) throws IOException, InterruptedException {
        // --out was checked to be new or empty; the default name is claimed, since another run may want it too
        Path dir = this.out != null ? Files.createDirectories(setup.outDir()) : ResultsFolder.claim(setup.outDir());
        RunFiles files = RunFiles.in(dir, !noDashboard);
        out.printf("stampede run: %s on JMeter at %s, %s%n", setup.plan().path(), setup.jmeter().home(),
                setup.java());
        if (setup.engines() != null) {
            out.printf("stampede run: distributed over %d engines: %s (each runs the whole plan)%n",
                    setup.engines().size(), setup.engines().jmeterList());
        }
        out.printf("stampede run: results in %s%n", files.dir());
        InjectorCollector collector = setup.engines() == null ? null : collector(setup.engines(), files, out);
        RunProperties runProps = collector == null ? props : props.with(PluginNames.INJECTOR_COLLECTOR, collector.url());
        RunInterrupt interrupt = new RunInterrupt();
        JtlWriteCheck written = new JtlWriteCheck(files);
        try (collector; JMeterProcess jmeter = JMeterProcess.start(setup, runProps, files, heap, interrupt, out)) {
            LatencyWindows windows = new LatencyWindows(windowSeconds * 1000L);
            RunStatistics stats = new ProgressPrinter(out, injector, progressEvery, written)
                    .follow(jmeter, files.jtl(), windows);
            Optional<String> lost = written.lost(stats.samples());
            if (lost.isPresent()) {
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
                    Optional.ofNullable(steadyAfter), injector);
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
            interrupt.reported();
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

    /** Everything checked before anything is written or started. */
    record RunSetup(PlanFile plan, RunProperties properties, JMeterInstallation jmeter, JavaRuntime java, Path outDir,
                    boolean useBuiltInTarget, RemoteEngines engines, boolean remoteExit, RmiKeystore rmiKeystore) {}
}
