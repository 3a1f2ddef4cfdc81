/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.blocking;

import io.stampede.cli.ExitCodes;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** `stampede blocking-time ACCESS_LOG...`: how long requests waited between HAProxy and each realserver. */
@Command(
        name = "blocking-time",
        mixinStandardHelpOptions = true,
        description = {
            "The time requests spent between HAProxy and nginx: nginx's receive time ($msec - $request_time) minus "
                    + "HAProxy's X-Request-Start stamp (t=<µs since the epoch>, set as it forwards), p50/p90/p99 "
                    + "per realserver. Give the access logs that the rendered nginx.conf writes with its `blocking` "
                    + "log_format. Values below -1 ms are reported: the clocks of HAProxy and that realserver "
                    + "disagree.",
            ""
        })
public final class BlockingTimeCommand implements Callable<Integer> {

    @Parameters(paramLabel = "ACCESS_LOG", arity = "1..*", description = "nginx access logs (one per realserver).")
    List<Path> logs;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        BlockingTimes b;
        try {
            b = BlockingTimes.read(logs);
        } catch (AccessLogException e) {
            err.println("stampede blocking-time: " + e.getMessage());
            err.flush();
            return ExitCodes.BAD_INPUT;
        }
        BlockingTimeReport.lines(b).forEach(out::println);
        out.flush();
        return ExitCodes.OK;
    }
}
