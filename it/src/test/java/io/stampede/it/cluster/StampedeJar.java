/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.cluster;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs the built CLI jar the way a user does: java -jar src/target/stampede.jar ARGS, from the repository root. */
final class StampedeJar {

    record Result(int exitCode, String output) {
    }

    static Path root() {
        return Path.of(System.getProperty("stampede.root", "..")).toAbsolutePath().normalize();
    }

    static Path jar() {
        Path jar = root().resolve("src/target/stampede.jar");
        assertTrue(Files.isRegularFile(jar), "build the CLI first: " + jar);
        return jar;
    }

    static ProcessBuilder builder(Path log, String... args) {
        List<String> cmd = new ArrayList<>(List.of(javaBin(), "-jar", jar().toString()));
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).directory(root().toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile());
    }

    static Result run(long timeoutSeconds, String... args) throws IOException, InterruptedException {
        Path log = Files.createTempFile("stampede-it-", ".log");
        try {
            Process p = builder(log, args).start();
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroy();
                p.waitFor(15, TimeUnit.SECONDS);
                p.destroyForcibly();
                throw new AssertionError("timed out after " + timeoutSeconds + " s:\n" + Files.readString(log));
            }
            String out = Files.readString(log, StandardCharsets.UTF_8);
            System.out.println(out);
            return new Result(p.exitValue(), out);
        } finally {
            Files.deleteIfExists(log);
        }
    }

    /** Copies a rendered tree (tests break their own copy, never the example). */
    static void copyTree(Path from, Path to) throws IOException {
        try (java.util.stream.Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
    }

    static String javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private StampedeJar() {
    }
}
