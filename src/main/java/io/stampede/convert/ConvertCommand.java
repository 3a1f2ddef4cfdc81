/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.convert;

import io.stampede.cli.ExitCodes;
import io.stampede.plan.HttpRequestConversion;
import io.stampede.plan.HttpRequestEngine;
import io.stampede.plan.JmxTree;
import io.stampede.plan.PlanException;
import io.stampede.plugins.PluginsOption;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** `stampede convert IN.jmx -o OUT.jmx`: a copy of a plan whose HTTP Requests are saved for the other engine. */
@Command(
        name = "convert",
        mixinStandardHelpOptions = true,
        description = {
            "Write a copy of a plan with every HTTP Request switched to Stampede's HTTP Request on the Netty engine "
                    + "(--to stampede) or back to JMeter's own (--to stock). Only each request's class changes: its "
                    + "fields, config elements and children stay as they are, so converting there and back gives "
                    + "the original file. The copy opens in JMeter's GUI with the stock HTTP Request panel.",
            "",
            "To run a plan on the other engine without a copy, use `stampede run PLAN --engine ...`.",
            ""
        })
public final class ConvertCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "IN.jmx", description = "The plan to convert; it is only read.")
    Path in;

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "OUT.jmx", description = "The copy to write.")
    Path output;

    @Option(names = "--to", paramLabel = "ENGINE", defaultValue = "stampede",
            description = "stampede (default) or stock: which HTTP Request the copy holds.")
    String to;

    @Option(names = "--force", description = "Replace OUT.jmx when it exists (without it an existing file is refused).")
    boolean force;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        HttpRequestEngine engine;
        JmxTree plan;
        HttpRequestConversion.Result result;
        Path target = output.toAbsolutePath().normalize();
        try {
            engine = HttpRequestEngine.parse("--to", to);
            plan = JmxTree.parse(in);
            PluginsOption.check(plan.path(), out, "stampede convert");
            if (Files.isDirectory(target)) {
                throw new PlanException("-o " + output + " is a folder: give the path of the .jmx file to write");
            }
            if (target.getParent() != null && !Files.isDirectory(target.getParent())) {
                throw new PlanException("-o " + output + ": the folder " + target.getParent()
                        + " does not exist; create it or give another path");
            }
            if (Files.exists(target) && !force) {
                throw new PlanException("-o " + output + " exists: give --force to replace it, or another path;"
                        + " nothing was written");
            }
            result = HttpRequestConversion.convert(plan, engine);
        } catch (PlanException | IllegalArgumentException e) {
            err.println("stampede convert: " + e.getMessage());
            return ExitCodes.BAD_INPUT;
        }
        try {
            write(result.text(), target);
        } catch (FileAlreadyExistsException e) {
            err.println("stampede convert: -o " + output + " appeared while converting: give --force to replace it;"
                    + " nothing was written");
            return ExitCodes.BAD_INPUT;
        }
        if (result.converted() == 0) {
            out.printf("stampede convert: %s has no %s HTTP Request, nothing to switch; wrote an identical copy to %s%n",
                    plan.fileName(), engine.other().id(), target);
        } else {
            out.printf("stampede convert: %d HTTP Request%s switched to %s; wrote %s%n", result.converted(),
                    result.converted() == 1 ? "" : "s", engine.description(), target);
        }
        return ExitCodes.OK;
    }

    /** Written whole or not at all: a temporary file beside the target, then moved over it. */
    private void write(String text, Path target) throws IOException {
        Path tmp = Files.createTempFile(target.getParent(), "." + target.getFileName(), ".tmp");
        try {
            Files.writeString(tmp, text, StandardCharsets.UTF_8, StandardOpenOption.TRUNCATE_EXISTING);
            if (force) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } else {
                // A plain move refuses a file that appeared since the check (an atomic rename would replace it).
                Files.move(tmp, target);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
