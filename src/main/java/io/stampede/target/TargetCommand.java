/*
 * Licensed under the Apache License, Version 2.0.
 */
package io.stampede.target;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** `stampede target`: the built-in target on its own, for users without nginx at hand. */
@Command(
        name = "target",
        mixinStandardHelpOptions = true,
        description = {
            "Run the built-in HTTP target: every request gets the same short static body (like nginx's test.txt).",
            "Keep-alive, pipelining and HEAD are supported. Stop it with Ctrl-C."
        })
public final class TargetCommand implements Callable<Integer> {

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

    @Override
    public Integer call() throws Exception {
        TargetSettings settings;
        try {
            settings = new TargetSettings(bind, port, bodySize, threads, 4096, delayMs);
        } catch (IllegalArgumentException e) {
            System.err.println("stampede target: " + e.getMessage());
            return 2;
        }
        TargetServer server;
        try {
            server = TargetServer.start(settings);
        } catch (Exception e) {
            System.err.println("stampede target: cannot listen on " + bind + ":" + port + ": " + e.getMessage()
                    + " (choose another --port or --bind)");
            return 2;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(server::close, "stampede-target-stop"));
        System.out.printf("stampede target: serving %d-byte body on http://%s:%d/ (%s)%s; Ctrl-C stops it%n",
                bodySize, server.address().getHostString(), server.address().getPort(), server.transport(),
                delayMs > 0 ? ", each answer " + delayMs + " ms late" : "");
        server.awaitClose();
        return 0;
    }
}
