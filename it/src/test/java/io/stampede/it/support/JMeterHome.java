/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.support;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The runnable JMeter 5.6.3 that the build assembles at {@code <stampede.root>/src/target/jmeter-home}, with our
 * plugin jar and casutg in {@code lib/ext}.
 */
public record JMeterHome(Path dir) {

    static final String BUILD_HINT = "build it first: mvn -B -pl src -am package -DskipTests";

    public JMeterHome {
        Path launcher = dir.resolve("bin/ApacheJMeter.jar");
        if (!Files.isRegularFile(launcher)) {
            throw new IllegalStateException("no JMeter home at " + dir + " (missing " + launcher + "); " + BUILD_HINT);
        }
    }

    /** The home under the repository root named by the system property {@code stampede.root}. */
    public static JMeterHome fromStampedeRoot() {
        return new JMeterHome(stampedeRoot().resolve("src/target/jmeter-home"));
    }

    /** The repository root: failsafe sets {@code stampede.root}; a main class gets it with {@code -Dstampede.root=...}. */
    public static Path stampedeRoot() {
        String root = System.getProperty("stampede.root");
        if (root == null || root.isBlank()) {
            throw new IllegalStateException("system property stampede.root is not set: run through `mvn -pl it verify`"
                    + " (failsafe sets it) or pass -Dstampede.root=<repository root>");
        }
        return Path.of(root).toAbsolutePath().normalize();
    }

    public Path launcher() {
        return dir.resolve("bin/ApacheJMeter.jar");
    }

    /** Fails clearly when the plugin jar is missing, which would make every plan fail with a class-not-found error. */
    public JMeterHome requirePlugin(String jarName) {
        Path jar = dir.resolve("lib/ext").resolve(jarName);
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("JMeter home " + dir + " has no lib/ext/" + jarName + "; " + BUILD_HINT);
        }
        return this;
    }
}
