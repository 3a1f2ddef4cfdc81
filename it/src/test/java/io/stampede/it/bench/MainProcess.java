/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A benchmark's main class run as a process of its own on this test's class path, for tests of what it refuses: a
 * benchmark ends with System.exit, which a test cannot call in its own JVM.
 *
 * @param exitCode the process's exit code
 * @param output what it printed, standard output and error together
 */
record MainProcess(int exitCode, String output) {

    /** Runs {@code main} with the white-space separated {@code arguments}; at most a minute. */
    static MainProcess run(Class<?> main, String arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(List.of(arguments.trim().split("\\s+")));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException(main.getSimpleName() + " " + arguments + " did not end within a minute");
        }
        return new MainProcess(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    }
}
