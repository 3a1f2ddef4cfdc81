/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.jmeter;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Which JVM runs JMeter: {@code --java} when given, else {@code JAVA_HOME}, else the one running this CLI. A plan
 * with virtual users needs Java 21+: when the JVM so chosen is older (and was not named with {@code --java}), the
 * newest 21+ installation under the usual places is taken instead, preferring 24+ where {@code synchronized} no
 * longer pins a virtual thread to its carrier.
 *
 * @param searchRoots folders whose sub-folders are Java homes (/usr/lib/jvm, ...)
 */
public record JavaSelection(Path javaOption, String javaHomeEnv, JavaRuntime current, List<Path> searchRoots) {
    public static final int VIRTUAL_THREADS_JAVA = 21;

    /** Where Linux packages, SDKMAN!, IntelliJ and macOS put Java installations. */
    public static List<Path> usualPlaces() {
        String home = System.getProperty("user.home");
        List<Path> places = new ArrayList<>(List.of(Path.of("/usr/lib/jvm"), Path.of("/usr/java"), Path.of("/opt/java"),
                Path.of("/opt"), Path.of("/Library/Java/JavaVirtualMachines")));
        if (home != null) {
            places.add(Path.of(home, ".sdkman", "candidates", "java"));
            places.add(Path.of(home, ".jdks"));
        }
        return places;
    }

    public static JavaSelection fromEnvironment(Path javaOption) {
        return new JavaSelection(javaOption, System.getenv("JAVA_HOME"), JavaRuntime.current(), usualPlaces());
    }

    /** The outcome: the JVM and, when it was not the one asked for, a note saying why. */
    public record Choice(JavaRuntime runtime, String note) {
    }

    /**
     * @param needsVirtualThreads whether the plan holds a virtual-user thread group
     * @throws IllegalArgumentException naming the option (or what to install) when no usable JVM is found
     */
    public Choice choose(boolean needsVirtualThreads) {
        if (javaOption != null) {
            JavaRuntime given = JavaRuntime.at(javaOption).orElseThrow(() -> new IllegalArgumentException("--java "
                    + javaOption + " is not a Java installation (no bin/java with a release file): give a JDK's home "
                    + "folder, e.g. /usr/lib/jvm/temurin-25-jdk-amd64, or its bin/java"));
            if (needsVirtualThreads && given.feature() < VIRTUAL_THREADS_JAVA) {
                throw new IllegalArgumentException("--java " + javaOption + " is Java " + given.feature()
                        + ", but the plan's Stampede Virtual User Thread Group needs Java " + VIRTUAL_THREADS_JAVA
                        + " or newer: give a JDK 21+ (25 recommended)");
            }
            return new Choice(given, null);
        }
        JavaRuntime base = current;
        String from = "the JVM running stampede";
        if (javaHomeEnv != null && !javaHomeEnv.isBlank()) {
            Optional<JavaRuntime> env = JavaRuntime.at(Path.of(javaHomeEnv));
            if (env.isEmpty()) {
                throw new IllegalArgumentException("JAVA_HOME=" + javaHomeEnv + " is not a Java installation (no "
                        + "bin/java with a release file): fix JAVA_HOME, or give --java PATH");
            }
            base = env.get();
            from = "JAVA_HOME";
        }
        if (!needsVirtualThreads || base.feature() >= VIRTUAL_THREADS_JAVA) {
            return new Choice(base, null);
        }
        Optional<JavaRuntime> found = newestInstalled();
        if (found.isEmpty()) {
            throw new IllegalArgumentException("the plan's Stampede Virtual User Thread Group needs Java "
                    + VIRTUAL_THREADS_JAVA + " or newer; found only " + base + " (" + from + ") and none under "
                    + searchRoots.stream().map(Path::toString).reduce((a, b) -> a + ", " + b).orElse("")
                    + ": install a JDK 21+ (Java 25 recommended: apt-get install openjdk-25-jdk, or Temurin 25 from "
                    + "https://adoptium.net) and run again, or give --java PATH");
        }
        return new Choice(found.get(), "the plan has virtual users (Java " + VIRTUAL_THREADS_JAVA + "+), " + from
                + " is Java " + base.feature() + ": running JMeter on " + found.get());
    }

    /** The newest installation of Java 21 or newer under the search roots. */
    public Optional<JavaRuntime> newestInstalled() {
        List<JavaRuntime> all = new ArrayList<>();
        for (Path root : searchRoots) {
            if (!Files.isDirectory(root)) {
                continue;
            }
            try (Stream<Path> homes = Files.list(root)) {
                homes.forEach(h -> {
                    JavaRuntime.at(h).ifPresent(all::add);
                    JavaRuntime.at(h.resolve("Contents").resolve("Home")).ifPresent(all::add);
                });
            } catch (IOException e) {
                // an unreadable folder holds nothing we can run
            }
        }
        return all.stream().filter(r -> r.feature() >= VIRTUAL_THREADS_JAVA)
                .max(Comparator.comparingInt(JavaRuntime::feature).thenComparing(r -> r.home().toString()));
    }
}
