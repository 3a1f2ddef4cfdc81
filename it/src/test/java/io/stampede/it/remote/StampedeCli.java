/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.remote;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The built CLI, run as `./stampede` runs it (without the launcher's build step: the reactor built it). */
final class StampedeCli {

    private StampedeCli() {}

    static List<String> command(Path root, String... args) {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dstampede.root=" + root, "-jar", root.resolve("src/target/stampede.jar").toString()));
        cmd.addAll(List.of(args));
        return cmd;
    }

    /**
     * Runs `stampede run ...` in {@code dir} to its end (at most 240 s, then it and its JMeter are killed) and
     * returns its exit status; its console is in {@code console}.
     */
    static int runToEnd(Path root, Path dir, Path console, List<String> args) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command(root, args.toArray(String[]::new)))
                .directory(dir.toFile()).redirectErrorStream(true).redirectOutput(console.toFile()).start();
        try {
            if (!p.waitFor(240, TimeUnit.SECONDS)) {
                throw new AssertionError("stampede run did not finish in 240 s:\n" + Files.readString(console));
            }
        } finally {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        return p.exitValue();
    }
}
