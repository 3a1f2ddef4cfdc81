/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** stampede cluster: render, validate and prove LVS-DR / HAProxy cluster configurations. */
@Command(name = "cluster", mixinStandardHelpOptions = true,
        description = {"LVS-DR / HAProxy / nginx / kernel configuration from one YAML description.",
            "render: write every host's files; validate: run the real validators on them;",
            "lab: build the cluster from network namespaces on this machine and prove it works (root)."},
        subcommands = {RenderCommand.class, ValidateCommand.class, LabCommand.class})
public final class ClusterCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
