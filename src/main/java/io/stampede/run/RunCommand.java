/*
 * Licensed under the Apache License, Version 2.0.
 */
package io.stampede.run;

import io.stampede.cli.StampedeRoot;
import io.stampede.jmeter.JMeterCommandLine;
import io.stampede.jmeter.JMeterInstallation;
import io.stampede.jmeter.JavaRuntime;
import io.stampede.jmeter.JavaSelection;
import io.stampede.remote.ControllerStop;
import io.stampede.remote.RemoteEngine;
import io.stampede.remote.RemoteEngines;
import io.stampede.results.JtlTail;
import io.stampede.results.LatencyHistogramFile;
import io.stampede.results.RunStatistics;
import io.stampede.target.TargetServer;
import io.stampede.target.TargetSettings;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

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
            "Exit status: 0 the run completed (the summary reports any errors); 2 bad input (plan, option or "
                    + "property); 3 the target is unreachable; 4 JMeter failed to start or to finish.",
            ""
        })
public final class RunCommand implements Callable<Integer> {

    static final int EXIT_INPUT = 2;
    static final int EXIT_UNREACHABLE = 3;
    static final int EXIT_JMETER = 4;

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

    @Option(names = "--heap", paramLabel = "SIZE", description = "JMeter's heap, as for -Xmx (default: ${DEFAULT-VALUE}).")
    String heap = "2g";

    @Option(names = "--no-dashboard", description = "Skip the HTML dashboard (the JTL is still written).")
    boolean noDashboard;

    @Option(names = "--remote", paramLabel = "host[:port],...",
            description = "Run through JMeter's distributed mode (-R) on these engines (`stampede server` on each; "
                    + "port default 1099). Every engine runs the whole plan; their samples come back into one JTL. "
                    + "-J properties are sent to the engines (-G).")
    String remote;

    @Option(names = "--remote-exit", description = "With --remote: the engines exit when the run ends (-X).")
    boolean remoteExit;

    @Option(names = "--progress-every", paramLabel = "SECONDS",
            description = "Seconds between progress lines (default: ${DEFAULT-VALUE}).")
    int progressEvery = 5;

    private final PrintStream stdout = System.out;
    private final PrintStream stderr = System.err;

    @Override
    public Integer call() throws Exception {
        RunSetup setup;
        try {
            setup = prepare();
        } catch (RunInputException | IllegalArgumentException | IllegalStateException e) {
            stderr.println("stampede run: " + e.getMessage());
            return EXIT_INPUT;
        }
        TargetServer builtIn = null;
        try {
            RunProperties props = setup.properties();
            if (setup.useBuiltInTarget()) {
                builtIn = TargetServer.start(TargetSettings.loopbackDefaults());
                props = props.with("host", "127.0.0.1")
                        .with("port", Integer.toString(builtIn.address().getPort()));
                stdout.printf("stampede run: built-in target on http://127.0.0.1:%d/ (%s)%n",
                        builtIn.address().getPort(), builtIn.transport());
            }
            String targetHost = props.get("host");
            int targetPort = Integer.parseInt(props.get("port") == null ? "80" : props.get("port"));
            String unreachable = Reachability.check(targetHost, targetPort, 3000);
            if (unreachable != null) {
                stderr.printf("stampede run: the target %s:%d is unreachable (%s): start the server, or fix --host/"
                        + "--port%n", targetHost, targetPort, unreachable);
                return EXIT_UNREACHABLE;
            }
            for (RemoteEngine engine : setup.engines() == null ? List.<RemoteEngine>of() : setup.engines().engines()) {
                String down = Reachability.check(engine.host(), engine.port(), 3000);
                if (down != null) {
                    stderr.printf("stampede run: the engine %s is unreachable (%s): start `stampede server --port %d`"
                            + " there, or fix --remote%n", engine, down, engine.port());
                    return EXIT_UNREACHABLE;
                }
            }
            InjectorWatch injector = InjectorWatch.start(setup.plan(), props, targetHost, targetPort);
            injector.verdictLines().forEach(stdout::println);
            return execute(setup, props, injector);
        } finally {
            if (builtIn != null) {
                builtIn.close();
            }
        }
    }

    private RunSetup prepare() throws IOException {
        if (progressEvery < 1) {
            throw new RunInputException("--progress-every " + progressEvery + ": give at least 1 second");
        }
        RemoteEngines engines = remote == null ? null : RemoteEngines.parse(remote);
        if (remoteExit && engines == null) {
            throw new RunInputException("--remote-exit works with --remote only: add --remote host[:port],...");
        }
        PlanFile planFile = PlanFile.read(plan);
        Map<String, String> given = new LinkedHashMap<>(properties);
        if (host != null) {
            given.put("host", host);
        }
        if (port != null) {
            given.put("port", Integer.toString(port));
        }
        if (host != null && port == null && !given.containsKey("port")) {
            given.put("port", "80");
        }
        RunProperties props = RunProperties.of(given);
        boolean builtIn = props.get("host") == null;
        if (builtIn && engines != null && !engines.allLoopback()) {
            throw new RunInputException("--remote " + remote + ": the built-in target listens on 127.0.0.1, out of"
                    + " reach of engines on other machines; give --host (and --port) of a target they can reach");
        }
        if (!builtIn && !planFile.readsProperty("host")) {
            stdout.println("stampede run: note: " + planFile.path().getFileName()
                    + " does not read the `host` property, so --host/-J host do not change where it sends requests");
        }
        Path root = StampedeRoot.locate();
        JMeterInstallation jmeter = jmeterHome == null
                ? JMeterInstallation.bundled(root)
                : JMeterInstallation.user(jmeterHome.toAbsolutePath().normalize(), root, installPlugin);
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
        if (!heap.matches("\\d+[kKmMgG]?")) {
            throw new RunInputException("--heap " + heap + ": give a size such as 2g or 1536m");
        }
        JavaSelection.Choice jvm = JavaSelection.fromEnvironment(java).choose(planFile.hasVirtualUsers());
        if (jvm.note() != null) {
            stdout.println("stampede run: " + jvm.note());
        }
        return new RunSetup(planFile, props, jmeter, jvm.runtime(), dir, builtIn, engines);
    }

    private int execute(RunSetup setup, RunProperties props, InjectorWatch injector)
            throws IOException, InterruptedException {
        Path dir = setup.outDir();
        Files.createDirectories(dir);
        Path jtl = dir.resolve("results.jtl");
        Path log = dir.resolve("jmeter.log");
        Path console = dir.resolve("jmeter.out");
        Path dashboard = noDashboard ? null : dir.resolve("dashboard");
        List<String> jvm = new ArrayList<>(List.of("-Xms512m", "-Xmx" + heap, "-XX:+UseG1GC",
                "-XX:MaxGCPauseMillis=100", "-Djava.awt.headless=true",
                // A JVM out of heap would limp on, its users dying one by one; stop at once and say so below.
                "-XX:+ExitOnOutOfMemoryError"));
        List<String> cmd;
        if (setup.engines() == null) {
            cmd = JMeterCommandLine.run(setup.jmeter(), setup.java(), jvm, setup.plan().path(), jtl, log, props.values());
        } else {
            List<String> controllerJvm = new ArrayList<>(jvm);
            setup.engines().callbackAddress().ifPresent(a -> controllerJvm.add("-Djava.rmi.server.hostname=" + a));
            cmd = JMeterCommandLine.runRemote(setup.jmeter(), setup.java(), controllerJvm, setup.plan().path(), jtl, log,
                    props.values(), setup.engines().jmeterList(), remoteExit);
        }
        stdout.printf("stampede run: %s on JMeter at %s, %s%n", setup.plan().path(), setup.jmeter().home(),
                setup.java());
        if (setup.engines() != null) {
            stdout.printf("stampede run: distributed over %d engines: %s (each runs the whole plan)%n",
                    setup.engines().size(), setup.engines().jmeterList());
        }
        stdout.printf("stampede run: results in %s%n", dir);

        Process jmeter = new ProcessBuilder(cmd)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(console.toFile())
                .start();
        Thread killer = new Thread(() -> {
            if (setup.engines() != null) {
                stdout.println("stampede run: stopping the engines...");
                ControllerStop.stopEngines(jmeter, console, 20);
            }
            stop(jmeter);
        }, "stampede-run-stop");
        Runtime.getRuntime().addShutdownHook(killer);

        RunStatistics stats = new RunStatistics();
        long start = System.nanoTime();
        ProgressLine progress = new ProgressLine(start);
        try (JtlTail tail = new JtlTail(jtl)) {
            while (!jmeter.waitFor(progressEvery, TimeUnit.SECONDS)) {
                tail.poll(stats::add);
                injector.sample();
                stdout.println(progress.next(stats, System.nanoTime(), start));
            }
            tail.poll(stats::add);
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(killer);
            } catch (IllegalStateException shuttingDown) {
                // the hook is already running
            }
        }
        int exit = jmeter.exitValue();
        if (exit != 0 || stats.samples() == 0) {
            stderr.printf("stampede run: JMeter %s (exit %d, %d samples). Last lines of %s:%n",
                    exit != 0 ? "failed" : "produced no samples", exit, stats.samples(), console.getFileName());
            JMeterOutput.tail(console, 15).forEach(l -> stderr.println("  | " + l));
            JMeterOutput.errors(log, 10).forEach(l -> stderr.println("  ! " + l));
            if (JMeterOutput.ranOutOfMemory(console, log)) {
                stderr.printf("stampede run: JMeter ran out of memory with --heap %s: give it more (e.g. --heap %s),"
                        + " or run fewer users per engine%n", heap, JMeterOutput.doubled(heap));
            }
            return EXIT_JMETER;
        }
        List<String> summary = new ArrayList<>();
        summary.add("stampede run: " + setup.plan().path().getFileName() + " against " + props.get("host") + ":"
                + props.get("port"));
        summary.addAll(RunSummary.lines(stats));
        Path hlog = dir.resolve("latency.hlog");
        LatencyHistogramFile.write(hlog, stats, stats.firstStartMillis(), stats.firstStartMillis() + stats.spanMs());
        summary.add("  from " + hlog.getFileName() + " (us resolution where the samplers wrote stampede_elapsed_us):");
        summary.addAll(LatencyHistogramFile.summaryLines(LatencyHistogramFile.read(hlog)));
        injector.diagnose(stats).lines().forEach(l -> summary.add("  " + l));
        summary.forEach(stdout::println);
        int status = 0;
        if (dashboard != null) {
            stdout.println("stampede run: generating the HTML dashboard...");
            Path index = dashboard.resolve("index.html");
            if (generateDashboard(setup, jvm, jtl, dir.resolve("dashboard.log"), dashboard, props)) {
                summary.add("  dashboard  " + index);
            } else {
                summary.add("  dashboard  NOT generated: see " + dir.resolve("dashboard.log"));
                status = EXIT_JMETER;
            }
            stdout.println(summary.get(summary.size() - 1));
        }
        summary.add("  histogram  " + hlog);
        stdout.println(summary.get(summary.size() - 1));
        summary.add("  jtl        " + jtl);
        stdout.println(summary.get(summary.size() - 1));
        Files.write(dir.resolve("summary.txt"), summary);
        return status;
    }

    private boolean generateDashboard(RunSetup setup, List<String> jvm, Path jtl, Path log, Path dashboard,
                                      RunProperties props) throws IOException, InterruptedException {
        List<String> cmd = JMeterCommandLine.dashboard(setup.jmeter(), setup.java(), jvm, jtl, log, dashboard, props.values());
        Process p = new ProcessBuilder(cmd).directory(setup.outDir().toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(setup.outDir().resolve("jmeter.out").toFile()))
                .start();
        if (!p.waitFor(30, TimeUnit.MINUTES)) {
            stop(p);
            return false;
        }
        return p.exitValue() == 0 && Files.exists(dashboard.resolve("index.html"));
    }

    private static void stop(Process p) {
        p.descendants().forEach(ProcessHandle::destroy);
        p.destroy();
        try {
            if (!p.waitFor(5, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Everything checked before anything is written or started. */
    record RunSetup(PlanFile plan, RunProperties properties, JMeterInstallation jmeter, JavaRuntime java, Path outDir,
                    boolean useBuiltInTarget, RemoteEngines engines) {}
}
