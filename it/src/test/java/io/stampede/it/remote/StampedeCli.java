/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.remote;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The built CLI, run as `./stampede` runs it (without the launcher's build step: the reactor built it). */
final class StampedeCli {

    private StampedeCli() {}

    static List<String> command(Path root, String... args) {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dstampede.root=" + root, "-jar", root.resolve("src/target/stampede.jar").toString()));
        cmd.addAll(List.of(args));
        return cmd;
    }
}
