/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.it.support.NginxServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 20: a server that closes keep-alive connections itself must be reported as the server's doing, never as
 * the injector's. Real nginx with one worker and 12 worker_connections gets a keep-alive plan of 40 paced connections:
 * it closes idle keep-alive connections to make room ("reusing connections") and drops new ones it has no room
 * for; `stampede run --server-log` must put the failures on the server, quoting nginx's log.
 */
class ServerClosedConnectionsIT {

    private static final Path ROOT = Path.of(System.getProperty("stampede.root", "..")).toAbsolutePath().normalize();
    private static final Pattern ERRORS = Pattern.compile("errors\\s+([\\d,]+) \\(");

    @TempDir
    Path dir;

    @Test
    void nginxShortOfWorkerConnectionsIsReportedAsTheServerNotTheInjector() throws Exception {
        // One worker with 12 worker_connections (its listening socket takes one of them).
        try (NginxServer nginx = NginxServer.start(NginxServer.Options.defaults().withWorkerConnections(12))) {
            int port = nginx.port();
            Path errorLog = nginx.dir().resolve("error.log");
            Result run = stampede(List.of("run", ROOT.resolve("it/bench/distributed-hold.jmx").toString(),
                    "--host", "127.0.0.1", "--port", Integer.toString(port), "-J", "threads=1", "-J", "duration=8",
                    "-J", "rampup=0", "-J", "stampede.connections_per_thread=40", "-J", "pacing_ms=400",
                    "-J", "think_ms=0", "--server-log", errorLog.toString(), "--no-dashboard",
                    "--progress-every", "1", "--out", dir.resolve("out").toString()));
            String out = run.stdout();
            assertEquals(0, run.exit(), run.describe());
            String log = Files.readString(errorLog);
            assertTrue(log.contains("worker_connections are not enough"), log);

            // whatever the samples saw, the verdict quotes nginx's log and never names the injector
            assertTrue(out.contains("server log error.log: \"reusing connections\"")
                    || out.contains("server log error.log: \"worker_connections are not enough\""), run.describe());
            // (the summary's "injector: x % sent late" line is about send delays, not about who closed connections)
            assertFalse(Pattern.compile("injector: [\\d,]+ of [\\d,]+ samples").matcher(out).find(), run.describe());
            assertFalse(out.contains("not the server"), run.describe());
            Matcher errors = ERRORS.matcher(out);
            assertTrue(errors.find(), run.describe());
            if (!errors.group(1).equals("0")) {
                assertTrue(out.contains("  server or network: "), run.describe());
                assertTrue(out.contains("no sample ran out of local ports"), run.describe());
                assertTrue(out.contains("usual causes on the server's side: its keep-alive limits"), run.describe());
            } else {
                assertTrue(out.contains("  server: no sample failed on its connection, but the server's log reports"),
                        run.describe());
            }
            assertTrue(out.contains("per 30-s window"), run.describe());
        }
    }

    private Result stampede(List<String> args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(ROOT.resolve("stampede").toString());
        cmd.addAll(args);
        Path stdout = dir.resolve("stampede.out");
        Path stderr = dir.resolve("stampede.err");
        Process p = new ProcessBuilder(cmd).directory(ROOT.toFile())
                .redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
        try {
            if (!p.waitFor(180, TimeUnit.SECONDS)) {
                throw new AssertionError("stampede " + args + " did not finish within 180 s:\n"
                        + Files.readString(stdout) + Files.readString(stderr));
            }
            return new Result(p.exitValue(), Files.readString(stdout), Files.readString(stderr));
        } finally {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
    }

    private record Result(int exit, String stdout, String stderr) {
        String describe() {
            return "exit " + exit + "\n--- stdout\n" + stdout + "\n--- stderr\n" + stderr;
        }
    }
}
