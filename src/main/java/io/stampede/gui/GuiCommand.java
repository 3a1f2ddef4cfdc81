/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.gui;

import io.stampede.cli.ExitCodes;
import io.stampede.cli.StampedeRoot;
import io.stampede.jmeter.JMeterCommandLine;
import io.stampede.jmeter.JMeterHomeOption;
import io.stampede.jmeter.JMeterInstallation;
import io.stampede.jmeter.JMeterPropertiesOption;
import io.stampede.jmeter.JMeterStop;
import io.stampede.plugins.PluginsOption;
import io.stampede.run.PlanFile;
import io.stampede.run.RunInputException;
import io.stampede.run.RunProperties;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** `stampede gui [PLAN.jmx]`: JMeter's own GUI with Stampede's samplers, to design plans that `run` then runs. */
@Command(
        name = "gui",
        mixinStandardHelpOptions = true,
        description = {
            "Open JMeter 5.6.3's GUI with Stampede's samplers (Add > Sampler > Stampede HTTP Request / Stampede HTTP RAW Request) and the "
                    + "jmeter-plugins thread groups, to design a plan; save it, then run it with `stampede run`.",
            "",
            "JMeter runs in this terminal (its log is jmeter.log in the current folder); closing the window or "
                    + "Ctrl-C ends it. Exit 0 when the GUI was closed; 2 also when there is no display.",
            ""
        })
public final class GuiCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    PluginsOption plugins;

    @Parameters(index = "0", arity = "0..1", paramLabel = "PLAN.jmx",
            description = "A plan to open, e.g. plans/quickstart.jmx. Default: a new, empty plan.")
    Path plan;

    @Mixin
    JMeterPropertiesOption properties;

    @Mixin
    JMeterHomeOption jmeterHome;

    @Option(names = "--heap", paramLabel = "SIZE", description = "JMeter's heap, as for -Xmx (default: ${DEFAULT-VALUE}).")
    String heap = "1g";

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        List<String> cmd;
        try {
            cmd = commandLine(out);
        } catch (RunInputException | IllegalArgumentException | IllegalStateException e) {
            err.println("stampede gui: " + e.getMessage());
            return ExitCodes.BAD_INPUT;
        }
        Optional<String> noDisplay = Display.missing(System.getenv(), System.getProperty("os.name", ""));
        if (noDisplay.isPresent()) {
            err.println("stampede gui: " + noDisplay.get());
            return ExitCodes.BAD_INPUT;
        }
        out.println("stampede gui: opening " + (plan == null ? "a new plan" : plan) + " in JMeter's GUI"
                + " (close the window or press Ctrl-C to end)");
        out.flush(); // JMeter writes to the same terminal from now on
        Process jmeter = new ProcessBuilder(cmd).inheritIO().start();
        // Ctrl-C reaches JMeter too (same process group); this hook covers a plain `kill` of the CLI.
        Thread stop = new Thread(() -> JMeterStop.stop(jmeter, 5), "stampede-gui-stop");
        Runtime.getRuntime().addShutdownHook(stop);
        int exit = jmeter.waitFor();
        try {
            Runtime.getRuntime().removeShutdownHook(stop);
        } catch (IllegalStateException shuttingDown) {
            return exit; // the hook is ending JMeter; the JVM's own exit status stands
        }
        if (exit != 0) {
            err.printf("stampede gui: JMeter exited with status %d; see its output above and jmeter.log%n", exit);
            return ExitCodes.JMETER_FAILED;
        }
        return ExitCodes.OK;
    }

    /** Everything checked before a window opens: the plan, the properties, the JMeter home and the heap. */
    private List<String> commandLine(PrintWriter out) throws IOException {
        Path planPath = plan == null ? null : PlanFile.read(plan).path();
        RunProperties props = RunProperties.of(properties.values());
        if (!heap.matches("\\d+[kKmMgG]?")) {
            throw new IllegalArgumentException("--heap " + heap + ": give a size such as 1g or 1536m");
        }
        Path root = StampedeRoot.locate();
        JMeterInstallation jmeter = jmeterHome.installation(root, false);
        jmeter = plugins.prepare(jmeter, planPath, out, "stampede gui");
        // Grey-scale antialiased text; without the property JMeter's look and feel warns on every start.
        List<String> jvm = List.of("-Xms256m", "-Xmx" + heap, "-XX:+UseG1GC", "-Dawt.useSystemAAFontSettings=on");
        return JMeterCommandLine.gui(jmeter, jvm, planPath, props.values());
    }
}
