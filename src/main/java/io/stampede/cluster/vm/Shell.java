/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.vm;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A long child process (the guest build, qemu) whose output is read line by line as it comes. Every command is
 * started under coreutils' timeout, which runs it in a process group of its own and passes a SIGTERM on to that
 * whole group: stopping the child stops everything it started.
 */
final class Shell {

    private final Process process;

    private Shell(Process process) {
        this.process = process;
    }

    static Shell start(List<String> command) throws VmException {
        try {
            return new Shell(new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start());
        } catch (IOException e) {
            throw new VmException("cannot start " + command.get(0) + ": " + e.getMessage());
        }
    }

    /** Hands every output line to the consumer until the process ends; returns its exit code. */
    int lines(Consumer<String> consumer) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                consumer.accept(line);
            }
        } catch (IOException e) {
            // the process went away; its exit code tells the rest
        }
        try {
            return process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stop();
            return -1;
        }
    }

    /** SIGTERM (timeout passes it on to its group), SIGKILL after 10 s. */
    void stop() {
        if (!process.isAlive()) {
            return;
        }
        List<ProcessHandle> all = process.descendants().toList();
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
        all.forEach(ProcessHandle::destroyForcibly);
    }

    /**
     * Runs the command to its end, lines to the consumer. On Ctrl-C (JVM shutdown) the child is stopped first and
     * then afterStop runs (removing what the child was writing), in that order.
     */
    static int stream(List<String> command, Consumer<String> consumer, Runnable afterStop) throws VmException {
        Shell s = start(command);
        Thread hook = new Thread(() -> {
            s.stop();
            afterStop.run();
        }, "stampede-vm-child-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            return s.lines(consumer);
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is stopping the child now
            }
        }
    }
}
