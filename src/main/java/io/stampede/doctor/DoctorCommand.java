/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.doctor;

import io.stampede.cli.ExitCodes;
import io.stampede.jmeter.JMeterPropertiesOption;
import io.stampede.plan.JmxTree;
import io.stampede.plan.PlanException;
import io.stampede.plan.SamplerProtocols;
import io.stampede.plugins.PluginsOption;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** `stampede doctor`: can this injector carry the test? */
@Command(
        name = "doctor",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Read-only checks of the machine and network namespace this runs in, so that an injector's failures are"
                    + " not blamed on the server: ephemeral ports and the new-connection rate they allow per destination"
                    + " (TIME_WAIT is 60 s; tcp_fin_timeout does not shorten it), tcp_tw_reuse and tcp_timestamps,"
                    + " TIME_WAIT sockets now, open-file limits, listen backlog of a local target, conntrack, and"
                    + " obsolete lines in /etc/sysctl.conf and /etc/sysctl.d/*.conf.",
            "Each check prints its value, a verdict (ok/warn/fail) and the exact fix. On Windows it explains the"
                    + " dynamic port range, TcpTimedWaitDelay and the netsh commands instead.",
            ""
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  stampede doctor --plan plans/nginx-welcome-1000x50.jmx -J threads=1000",
            "  stampede doctor --target 10.0.0.5:80 --rate 800    (new connections/s)",
            "  stampede doctor --connections 20000 --json"
        })
public final class DoctorCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--target", paramLabel = "HOST:PORT",
            description = "The server under test ([IPv6]:PORT for IPv6). Counts TIME_WAIT to it; a loopback target"
                    + " gets tcp_tw_reuse=2, a local one a backlog check. Default: the plan's only host:port, if any.")
    String target;

    @Option(names = "--plan", paramLabel = "PLAN.jmx",
            description = "Read threads, keep-alive and connections per thread from this JMeter plan.")
    Path plan;

    @Mixin
    JMeterPropertiesOption properties;

    @Option(names = "--rate", paramLabel = "N",
            description = "New connections per second to the target that the injector closes (each then holds a"
                    + " local port in TIME_WAIT for 60 s): a load without keep-alive. Replaces the plan's estimate.")
    Double rate;

    @Option(names = "--connections", paramLabel = "N",
            description = "Connections open at the same time. Replaces the plan's figure.")
    Long connections;

    @Option(names = "--json", description = "Print the report as JSON.")
    boolean json;

    @Override
    public Integer call() throws IOException {
        PrintWriter err = spec.commandLine().getErr();
        PrintWriter out = spec.commandLine().getOut();
        DoctorReport report;
        try {
            PlannedLoad numbers = PlannedLoad.of(connections, rate);
            PlannedLoad load = numbers;
            Optional<String> targetText = Optional.ofNullable(target);
            if (plan != null) {
                JmxTree tree = JmxTree.parse(plan);
                PluginsOption.check(tree.path(), err, "stampede doctor");
                SamplerProtocols.check(tree, properties.values());
                LoadEstimate read = LoadEstimate.of(tree, properties.values());
                load = read.load().overriddenBy(numbers);
                if (targetText.isEmpty() && read.targets().size() == 1) {
                    targetText = Optional.of(read.targets().iterator().next());
                }
            } else if (!properties.values().isEmpty()) {
                throw new IllegalArgumentException("-J: properties are only used with --plan PLAN.jmx");
            }
            Optional<Target> resolved;
            try {
                resolved = targetText.map(Target::parse);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--target: " + e.getMessage());
            }
            report = Doctor.forThisMachine().examine(resolved, load);
        } catch (PlanException e) {
            err.println("stampede doctor: --plan " + e.getMessage());
            err.flush();
            return ExitCodes.BAD_INPUT;
        } catch (IllegalArgumentException e) {
            err.println("stampede doctor: " + e.getMessage());
            err.flush();
            return ExitCodes.BAD_INPUT;
        }
        out.print(json ? report.json() : report.text());
        out.flush();
        return report.exitCode();
    }
}
