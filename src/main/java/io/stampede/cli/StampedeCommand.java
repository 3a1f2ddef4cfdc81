/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The `stampede` command: each job is a subcommand of its own package. */
@Command(
        name = "stampede",
        mixinStandardHelpOptions = true,
        versionProvider = StampedeVersion.class,
        description = {
            "Load tests with Apache JMeter and Netty samplers, and the LVS / HAProxy clusters they test.",
            ""
        },
        subcommands = {
            io.stampede.run.RunCommand.class,
            io.stampede.convert.ConvertCommand.class,
            io.stampede.gui.GuiCommand.class,
            io.stampede.builtintarget.TargetCommand.class,
            io.stampede.doctor.DoctorCommand.class,
            io.stampede.cluster.ClusterCommand.class,
            io.stampede.distributed.ServerCommand.class,
            io.stampede.plugins.PluginsCommand.class,
            io.stampede.compare.CompareCommand.class,
            io.stampede.merge.MergeCommand.class,
            io.stampede.blocking.BlockingTimeCommand.class,
            CommandLine.HelpCommand.class,
        })
public final class StampedeCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** The command line as users get it: every subcommand, the one set of {@link ExitCodes}. */
    public static CommandLine commandLine() {
        return ExitCodes.apply(new CommandLine(new StampedeCommand()).setCaseInsensitiveEnumValuesAllowed(true));
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }
}
