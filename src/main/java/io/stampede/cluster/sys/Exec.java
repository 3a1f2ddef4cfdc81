/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.sys;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Runs external commands with a hard time limit; a command that hangs is killed, never waited on forever. */
public final class Exec {

    private Exec() {
    }

    public static ExecResult run(Duration limit, List<String> command) {
        return run(limit, command, "");
    }

    /**
     * Runs a command with {@code input} on its standard input, which is then closed. Secrets go this way: a
     * command line is readable by every user of the machine (/proc/PID/cmdline), a pipe only by the process.
     */
    public static ExecResult run(Duration limit, List<String> command, String input) {
        ProcessBuilder pb = new ProcessBuilder(command);
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            return new ExecResult(127, "", "cannot start " + command.get(0) + ": " + e.getMessage(), false);
        }
        try (var stdin = p.getOutputStream()) {
            stdin.write(input.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        } catch (IOException e) {
            // the command ended without reading its input: its exit code and output tell why
        }
        CompletableFuture<String> out = drain(p.getInputStream());
        CompletableFuture<String> err = drain(p.getErrorStream());
        boolean done;
        try {
            done = p.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            done = false;
        }
        if (!done) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        int code = done ? p.exitValue() : -1;
        return new ExecResult(code, join(out), join(err), !done);
    }

    public static ExecResult run(Duration limit, String... command) {
        return run(limit, List.of(command));
    }

    /** True when an executable of this name is on PATH (or in the sbin directories root has). */
    public static boolean available(String program) {
        return locate(program) != null;
    }

    public static Path locate(String program) {
        List<String> dirs = new ArrayList<>(List.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)));
        dirs.addAll(List.of("/usr/local/sbin", "/usr/sbin", "/sbin", "/usr/bin", "/bin"));
        for (String d : dirs) {
            if (d.isEmpty()) {
                continue;
            }
            Path p = Path.of(d, program);
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        return null;
    }

    /** Reads a stream on its own daemon thread, so a child that keeps a pipe open cannot block us. */
    private static CompletableFuture<String> drain(InputStream in) {
        CompletableFuture<String> result = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try (in) {
                result.complete(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                result.complete("");
            }
        }, "stampede-exec-drain");
        t.setDaemon(true);
        t.start();
        return result;
    }

    private static String join(CompletableFuture<String> f) {
        try {
            return f.get(2, TimeUnit.SECONDS);
        } catch (Exception e) {
            return "";
        }
    }
}
