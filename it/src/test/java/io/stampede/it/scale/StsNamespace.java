/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.scale;

import io.stampede.it.support.ProcessTrees;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A network namespace named "sts..." (the scale tests' prefix) with only its loopback up. Processes started in it
 * with {@link #start} are killed and the namespace is deleted on close, also when the test fails.
 */
final class StsNamespace implements AutoCloseable {

    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    final String name;
    private final List<Process> started = new ArrayList<>();

    private StsNamespace(String name) {
        this.name = name;
    }

    static StsNamespace create() throws IOException, InterruptedException {
        String name = "sts" + ProcessHandle.current().pid() + "x" + SEQUENCE.incrementAndGet();
        run(List.of("ip", "netns", "add", name), 20);
        StsNamespace ns = new StsNamespace(name);
        try {
            ns.exec("ip", "link", "set", "lo", "up");
            return ns;
        } catch (RuntimeException | IOException | InterruptedException e) {
            ns.close();
            throw e;
        }
    }

    /** Runs a short command inside; fails when it fails. */
    String exec(String... command) throws IOException, InterruptedException {
        List<String> full = new ArrayList<>(List.of("ip", "netns", "exec", name));
        full.addAll(List.of(command));
        return run(full, 30);
    }

    /** Starts a long-running process inside (ip netns exec replaces itself with it), output to {@code log}. */
    Process start(List<String> command, Path workDir, Path log) throws IOException {
        List<String> full = new ArrayList<>(List.of("ip", "netns", "exec", name));
        full.addAll(command);
        Process p = new ProcessBuilder(full).directory(workDir.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        started.add(p);
        return p;
    }

    private static String run(List<String> command, int timeoutSeconds) throws IOException, InterruptedException {
        Path out = Files.createTempFile("sts-ns-", ".out");
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile()).start();
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                throw new IllegalStateException(String.join(" ", command) + " did not finish in " + timeoutSeconds
                        + " s");
            }
            String text = Files.readString(out, StandardCharsets.UTF_8);
            if (p.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " exited " + p.exitValue() + ": " + text);
            }
            return text;
        } finally {
            Files.deleteIfExists(out);
        }
    }

    @Override
    public void close() throws IOException {
        try {
            for (Process p : started) {
                ProcessTrees.kill(p); // nginx masters among them: the parent first, or it respawns a worker
            }
            run(List.of("ip", "netns", "del", name), 20);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted while removing namespace " + name);
        }
    }
}
