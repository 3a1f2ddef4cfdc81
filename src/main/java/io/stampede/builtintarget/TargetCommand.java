/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.builtintarget;

import io.stampede.cli.ExitCodes;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** `stampede target`: the built-in target on its own, for users without nginx at hand. */
@Command(
        name = "target",
        mixinStandardHelpOptions = true,
        description = {
            "Run the built-in HTTP target: every request gets the same short static body (like nginx's test.txt).",
            "Keep-alive, pipelining and HEAD are supported. A client that does not read its answers is not read",
            "either; idle connections are closed. Stop it with Ctrl-C."
        })
public final class TargetCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--port", paramLabel = "P", description = "TCP port to listen on (default: ${DEFAULT-VALUE}).")
    int port = 8080;

    @Option(names = "--bind", paramLabel = "ADDR", description = "Address to bind (default: ${DEFAULT-VALUE}).")
    String bind = "127.0.0.1";

    @Option(names = "--body-size", paramLabel = "N", description = "Body size in bytes (default: ${DEFAULT-VALUE}).")
    int bodySize = TargetSettings.DEFAULT_BODY_SIZE;

    @Option(names = "--threads", paramLabel = "N",
            description = "Event-loop threads (default: ${DEFAULT-VALUE}; leave cores to the injector).")
    int threads = 1;

    @Option(names = "--delay-ms", paramLabel = "MS",
            description = "Answer every request this many ms after it arrived, as a slower server would "
                    + "(default: ${DEFAULT-VALUE}); for comparing a known difference.")
    int delayMs;

    @Option(names = "--max-connections", paramLabel = "N",
            description = "Connections open at once; one more is answered 503 and closed (default: ${DEFAULT-VALUE}).")
    int maxConnections = TargetSettings.DEFAULT_MAX_CONNECTIONS;

    @Option(names = "--idle-timeout", paramLabel = "S",
            description = "Close a connection idle this many seconds, 0 never (default: ${DEFAULT-VALUE}).")
    int idleTimeout = TargetSettings.DEFAULT_IDLE_TIMEOUT_SECONDS;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        TargetSettings settings;
        try {
            settings = new TargetSettings(bind, port, bodySize, threads, 4096, delayMs, maxConnections, idleTimeout);
        } catch (IllegalArgumentException e) {
            err.println("stampede target: " + e.getMessage());
            return ExitCodes.BAD_INPUT;
        }
        TargetServer server;
        try {
            server = TargetServer.start(settings);
        } catch (Exception e) {
            err.println("stampede target: cannot listen on " + bind + ":" + port + ": " + e.getMessage()
                    + " (choose another --port or --bind)");
            return ExitCodes.BAD_INPUT;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(server::close, "stampede-target-stop"));
        out.printf("stampede target: serving %d-byte body on http://%s:%d/ (%s)%s; Ctrl-C stops it%n",
                bodySize, server.address().getHostString(), server.address().getPort(), server.transport(),
                delayMs > 0 ? ", each answer " + delayMs + " ms late" : "");
        out.flush();
        server.awaitClose();
        return ExitCodes.OK;
    }
}
