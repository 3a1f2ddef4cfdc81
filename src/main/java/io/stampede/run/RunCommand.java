/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.run;

import io.stampede.cli.CliNames;
import io.stampede.cli.ExitCodes;
import io.stampede.cli.OutputFolder;
import io.stampede.cli.StampedeRoot;
import io.stampede.distributed.RemoteRunOptions;
import io.stampede.doctor.LoadEstimate;
import io.stampede.jmeter.JMeterHomeOption;
import io.stampede.jmeter.JMeterInstallation;
import io.stampede.jmeter.JMeterLogLevelsOption;
import io.stampede.jmeter.JMeterPropertiesOption;
import io.stampede.jmeter.JavaRuntime;
import io.stampede.jmeter.JavaSelection;
import io.stampede.plan.HttpRequestEngine;
import io.stampede.plan.PlanException;
import io.stampede.plugins.PluginsOption;
import io.stampede.share.DividedPlan;
import io.stampede.share.PlanDivider;
import io.stampede.share.Share;
import io.stampede.distributed.RemoteEngine;
import io.stampede.distributed.RemoteEngines;
import io.stampede.distributed.RmiKeystore;
import io.stampede.builtintarget.TargetServer;
import io.stampede.builtintarget.TargetSettings;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
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

    @Mixin
    JMeterPropertiesOption properties;

    @Mixin
    JMeterLogLevelsOption logLevels;

    @Option(names = "--engine", paramLabel = "ENGINE",
            description = "Which HTTP Request runs the plan's HTTP Requests: stampede (the Netty engine: each of "
                    + "JMeter's HTTP Requests runs as Stampede's, with the same fields and config elements) or stock "
                    + "(JMeter's own, HttpClient4; also: hc4; a converted plan's Stampede requests run as stock's). "
                    + "The plan file is not changed. Default: ${DEFAULT-VALUE}.")
    String engine = DEFAULT_ENGINE;

    @Option(names = "--out", paramLabel = "DIR",
            description = "Where to write results (must be new or empty). Default: results/<time>-<plan>/.")
    Path out;

    @Mixin
    JMeterHomeOption jmeterHome;

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

    @Mixin
    RemoteRunOptions remote;

    @Option(names = "--server-log", paramLabel = "FILE",
            description = "The target's error log on this machine (e.g. nginx's error.log): what it says during the "
                    + "run (connections reused, refused, out of files) goes into the diagnosis of failed connections.")
    Path serverLog;

    @Mixin
    SummaryOptions summary;

    @Option(names = "--share", paramLabel = "I/N",
            description = "Run share I of N of the plan's load: its users, rates, throughput timers and CSV rows "
                    + "divided so that N injectors, each with its own share, add up to the plan (docs/injectors.md).")
    String share;

    @Option(names = "--start-at", paramLabel = "INSTANT",
            description = "With --share: start the share's thread groups at this moment (UTC, ISO-8601, e.g. "
                    + "2026-11-28T09:30:00Z; `date -u -d +1min +%%FT%%TZ`), once JMeter is up, so that injectors started "
                    + "seconds apart ramp up together (docs/injectors.md).")
    String startAt;

    @Mixin
    MetricsOptions metrics;

    @Mixin
    PluginsOption plugins;

    @Spec
    CommandSpec spec;

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
            return new RunExecution(setup, summary, metrics, heap, this.out != null).run(props, injector, out, err);
        } finally {
            if (builtIn != null) {
                builtIn.close();
            }
        }
    }

    private RunSetup prepare(PrintWriter console) throws IOException {
        summary.check();
        if (serverLog != null && Files.isDirectory(serverLog)) {
            throw new RunInputException("--server-log " + serverLog + " is a folder: give the server's error log file,"
                    + " e.g. /var/log/nginx/error.log");
        }
        RunMetricsStart.check(metrics, spec);
        HttpRequestEngine httpEngine = HttpRequestEngine.parse("--engine", engine);
        RemoteEngines engines = remote.engines();
        RmiKeystore rmiTls = remote.keystore(engines, properties.values());
        PlanFile planFile = PlanFile.read(plan);
        Map<String, String> given = new LinkedHashMap<>(properties.values());
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
        DividedPlan divided = divided(planFile, props, engines);
        if (startAt != null) {
            console.println("stampede run: the thread groups start at " + startAt.trim() + ", once JMeter is up");
        }
        boolean builtIn = props.get(CliNames.HOST) == null;
        if (builtIn && engines != null && !engines.allLoopback()) {
            throw new RunInputException("--remote " + remote.given() + ": the built-in target listens on 127.0.0.1, out of"
                    + " reach of engines on other machines; give --host (and --port) of a target they can reach");
        }
        if (!builtIn && !planFile.readsProperty(CliNames.HOST)) {
            console.println("stampede run: note: " + planFile.path().getFileName()
                    + " does not read the `host` property, so --host/-J host do not change where it sends requests");
        }
        Path root = StampedeRoot.locate();
        JMeterInstallation jmeter = jmeterHome.installation(root, installPlugin);
        EngineSwitch engineSwitch = EngineSwitch.of(httpEngine, planFile, root);
        jmeter = jmeter.withSearchPath(engineSwitch.jar());
        jmeter = plugins.prepare(jmeter, planFile.path(), console, "stampede run");
        Path dir = out != null ? out : Path.of("results",
                LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")) + "-" + planFile.name());
        dir = dir.toAbsolutePath().normalize();
        String refusal = OutputFolder.refusal("--out", dir);
        if (refusal != null) {
            throw new RunInputException(refusal);
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
        return new RunSetup(planFile, props, logLevels.jmeterArguments(), jmeter, jvm.runtime(), dir, builtIn, engines,
                remote.remoteExit(), rmiTls, divided, planFile.path());
    }

    /** The share of the plan this run (or each engine) runs; null for the whole plan. */
    private DividedPlan divided(PlanFile planFile, RunProperties props, RemoteEngines engines) {
        if (share != null) {
            if (engines != null) {
                throw new RunInputException("--share with --remote: --remote already gives each engine its share;"
                        + " give --share to `stampede run` on independent injectors only (docs/injectors.md)");
            }
            DividedPlan divided = PlanDivider.divide(planFile.path(), props.values(), Share.parse(share));
            if (startAt != null) {
                divided.startAt(StartAtOption.parse(startAt, Instant.now()));
            }
            return divided;
        }
        if (startAt != null) {
            throw new RunInputException("--start-at works with --share only: give --share I/N (with --remote the"
                    + " controller starts every engine at once)");
        }
        if (remote.wholePlanPerEngine() && engines == null) {
            throw new RunInputException("--whole-plan-per-engine works with --remote only: add --remote host[:port],...");
        }
        return engines != null && !remote.wholePlanPerEngine()
                ? PlanDivider.perEngine(planFile.path(), props.values(), engines.size()) : null;
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

    /** Everything checked before anything is written or started. */
    record RunSetup(PlanFile plan, RunProperties properties, List<String> logLevels, JMeterInstallation jmeter,
                    JavaRuntime java, Path outDir, boolean useBuiltInTarget, RemoteEngines engines, boolean remoteExit,
                    RmiKeystore rmiKeystore, DividedPlan share, Path planToLoad) {

        /** This run, loading {@code load}: the written copy of the plan (or of {@code divided}'s share). */
        RunSetup loading(DividedPlan divided, Path load) {
            return new RunSetup(plan, properties, logLevels, jmeter, java, outDir, useBuiltInTarget, engines,
                    remoteExit, rmiKeystore, divided, load);
        }
    }
}
