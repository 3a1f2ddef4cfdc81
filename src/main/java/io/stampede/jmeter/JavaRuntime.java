/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.jmeter;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A Java installation JMeter can run on: its home, its {@code bin/java} and its feature release (17, 21, 25...). */
public record JavaRuntime(Path home, int feature) {
    private static final Pattern RELEASE_VERSION = Pattern.compile("(?m)^JAVA_VERSION=\"(1\\.)?(\\d+)");

    /** The JVM running this CLI. */
    public static JavaRuntime current() {
        return new JavaRuntime(Path.of(System.getProperty("java.home")), Runtime.version().feature());
    }

    /**
     * The installation at {@code path}: a Java home or its {@code bin/java}. Its version comes from the home's
     * {@code release} file, which every JDK and JRE since 9 ships (no process is started to ask it).
     */
    public static Optional<JavaRuntime> at(Path path) {
        Path p = path.toAbsolutePath().normalize();
        Path home = Files.isRegularFile(p) && p.getFileName().toString().equals("java") && p.getParent() != null
                ? p.getParent().getParent() : p;
        if (home == null || !Files.isExecutable(home.resolve("bin").resolve("java"))) {
            return Optional.empty();
        }
        try {
            Matcher m = RELEASE_VERSION.matcher(Files.readString(home.resolve("release")));
            return m.find() ? Optional.of(new JavaRuntime(home, Integer.parseInt(m.group(2)))) : Optional.empty();
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    public Path executable() {
        return home.resolve("bin").resolve("java");
    }

    @Override
    public String toString() {
        return "Java " + feature + " (" + home + ")";
    }
}
