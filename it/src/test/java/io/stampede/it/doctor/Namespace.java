/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.doctor;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A network namespace named "std..." (the doctor's prefix) for one test, removed on close even when the test
 * fails. Commands run inside it with `ip netns exec`, bounded in time.
 */
final class Namespace implements AutoCloseable {

    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    final String name;

    /** What a command printed (stdout and stderr together) and its exit status. */
    record Result(int exit, String output) {
    }

    private Namespace(String name) {
        this.name = name;
    }

    static Namespace create() throws IOException, InterruptedException {
        String name = "std" + ProcessHandle.current().pid() + "x" + SEQUENCE.incrementAndGet();
        Result add = host(List.of("ip", "netns", "add", name), 20);
        if (add.exit() != 0) {
            throw new IllegalStateException("ip netns add " + name + " failed: " + add.output());
        }
        Namespace ns = new Namespace(name);
        try {
            ns.must("ip", "link", "set", "lo", "up");
            return ns;
        } catch (RuntimeException | IOException | InterruptedException e) {
            ns.close();
            throw e;
        }
    }

    /** Runs inside the namespace; fails the test when the command fails. */
    Result must(String... command) throws IOException, InterruptedException {
        Result r = exec(List.of(command), 30);
        if (r.exit() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " in " + name + " exited " + r.exit() + ": "
                    + r.output());
        }
        return r;
    }

    Result exec(List<String> command, int timeoutSeconds) throws IOException, InterruptedException {
        List<String> full = new ArrayList<>(List.of("ip", "netns", "exec", name));
        full.addAll(command);
        return host(full, timeoutSeconds);
    }

    static Result host(List<String> command, int timeoutSeconds) throws IOException, InterruptedException {
        Path log = Files.createTempFile("std-ns-", ".out");
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                throw new IllegalStateException(String.join(" ", command) + " did not finish in " + timeoutSeconds
                        + " s; output: " + Files.readString(log, StandardCharsets.UTF_8));
            }
            return new Result(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(log);
        }
    }

    @Override
    public void close() throws IOException {
        // Processes we started in the namespace are stopped by the tests; this removes the namespace itself.
        try {
            host(List.of("ip", "netns", "del", name), 20);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted while removing namespace " + name);
        }
    }
}
