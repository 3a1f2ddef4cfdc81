/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.jmeter;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * A JMeter home to run plans with: the one the build assembles from Maven Central (ours and casutg already in
 * lib/ext), or the user's own, to which our jars are added only with consent or else passed by search_paths.
 */
public record JMeterInstallation(Path home, List<Path> searchPaths) {

    static final String LAUNCHER = "bin/ApacheJMeter.jar";
    /** Where the build assembles the JMeter home in a checkout. */
    static final String CHECKOUT_HOME = "src/target/jmeter-home";
    /** Where the release archive (stampede-VERSION.tar.gz) carries it. */
    static final String RELEASE_HOME = "jmeter";

    public JMeterInstallation {
        searchPaths = List.copyOf(searchPaths);
    }

    /** The same installation with one more jar handed to JMeter by search_paths. */
    public JMeterInstallation withSearchPath(Path jar) {
        List<Path> paths = new ArrayList<>(searchPaths);
        paths.add(jar);
        return new JMeterInstallation(home, paths);
    }

    public Path launcherJar() {
        return home.resolve(LAUNCHER);
    }

    /**
     * The folder of the bundled JMeter under Stampede's root: {@code jmeter/} in an unpacked release archive, else the
     * checkout's build output {@code src/target/jmeter-home}. Its lib/ext, switch/ and agent/ hold Stampede's jars.
     */
    public static Path bundledHome(Path stampedeRoot) {
        Path release = stampedeRoot.resolve(RELEASE_HOME);
        return Files.isDirectory(release) ? release : stampedeRoot.resolve(CHECKOUT_HOME);
    }

    /** The JMeter home bundled with Stampede ({@link #bundledHome}). */
    public static JMeterInstallation bundled(Path stampedeRoot) {
        Path home = bundledHome(stampedeRoot);
        if (!Files.isRegularFile(home.resolve(LAUNCHER))) {
            throw new IllegalStateException("the bundled JMeter is missing at " + home
                    + ": build it with `mvn -B -DskipTests package` (./stampede does that when needed)");
        }
        return new JMeterInstallation(home, List.of());
    }

    /**
     * The user's JMeter. With {@code install}, our plugin jars are copied into its lib/ext; otherwise they are
     * handed to JMeter with {@code -Jsearch_paths} and the installation is left as it was.
     */
    public static JMeterInstallation user(Path home, Path stampedeRoot, boolean install) throws IOException {
        if (!Files.isRegularFile(home.resolve(LAUNCHER))) {
            throw new IllegalArgumentException("--jmeter-home " + home + ": no " + LAUNCHER
                    + " there; give the folder that holds JMeter's bin/ and lib/");
        }
        List<Path> ours = pluginJars(stampedeRoot);
        List<Path> missing = new ArrayList<>();
        for (Path jar : ours) {
            if (!Files.exists(home.resolve("lib/ext").resolve(jar.getFileName()))) {
                missing.add(jar);
            }
        }
        if (install) {
            for (Path jar : missing) {
                Files.copy(jar, home.resolve("lib/ext").resolve(jar.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
            return new JMeterInstallation(home, List.of());
        }
        return new JMeterInstallation(home, missing);
    }

    /** Our plugin jar and the jmeter-plugins thread groups our plans use, from the bundled home. */
    static List<Path> pluginJars(Path stampedeRoot) throws IOException {
        Path ext = bundledHome(stampedeRoot).resolve("lib/ext");
        if (!Files.isDirectory(ext)) {
            throw new IllegalStateException("the plugin jars are not built yet (" + ext
                    + " is missing): run `mvn -B -DskipTests package` first");
        }
        try (Stream<Path> jars = Files.list(ext)) {
            return jars.filter(p -> {
                String n = p.getFileName().toString();
                return n.startsWith("stampede-plugins") || n.startsWith("jmeter-plugins-");
            }).sorted().toList();
        }
    }
}
