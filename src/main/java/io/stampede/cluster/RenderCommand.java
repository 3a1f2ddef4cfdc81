/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster;

import io.stampede.cli.ExitCodes;
import io.stampede.cluster.model.ClusterSpec;
import io.stampede.cluster.render.ClusterRenderer;
import io.stampede.cluster.render.OutputWriter;
import io.stampede.cluster.render.RenderedFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** stampede cluster render FILE -o DIR. */
@Command(name = "render", mixinStandardHelpOptions = true,
        description = {"Render keepalived, ipvsadm, systemd, nftables, nginx, HAProxy, sysctl.d, modprobe.d,",
            "modules-load.d and limits.d files from a cluster description: one folder per host under director/,",
            "realserver/, haproxy/ and injector/. Bad input is refused before anything is written."})
final class RenderCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "FILE", description = "the cluster description (YAML)")
    Path file;

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "DIR", description = "output directory")
    Path output;

    @Option(names = "--force", description = {"replace DIR when an earlier rendering wrote it (it holds "
            + OutputWriter.MARKER + "); never a folder of your own, never the current folder"})
    boolean force;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        var err = spec.commandLine().getErr();
        ClusterSpec cluster = SpecFiles.load(file, err);
        if (cluster == null) {
            return ExitCodes.BAD_INPUT;
        }
        List<RenderedFile> files = new ClusterRenderer().render(cluster);
        try {
            new OutputWriter().write(files, output, force);
        } catch (IOException e) {
            err.println("render: " + e.getMessage());
            return ExitCodes.CANNOT_RUN;
        }
        var out = spec.commandLine().getOut();
        files.forEach(f -> out.println("wrote " + output.resolve(f.relativePath())));
        out.println(files.size() + " files for cluster " + cluster.name() + " in " + output);
        return ExitCodes.OK;
    }
}
