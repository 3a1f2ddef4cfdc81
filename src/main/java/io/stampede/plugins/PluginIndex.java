/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.plugins;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the plugin catalogue offers, as the build indexed it from the artifacts (catalogue.tsv, written by
 * {@link IndexBuilder}): the plugins with the jars each needs, every jar's SHA-256, and which artifact holds each
 * class and function.
 */
public final class PluginIndex {

    /** A catalogue entry: its Plugins Manager id, its own jar and the libraries it needs besides. */
    public record Plugin(String id, Coordinates coordinates, List<Coordinates> libraries) {

        /** Its own jar first, then its libraries. */
        public List<Coordinates> jars() {
            List<Coordinates> all = new ArrayList<>(List.of(coordinates));
            all.addAll(libraries);
            return all;
        }
    }

    /** A jar as the build saw it. */
    public record Jar(Coordinates coordinates, String sha256, long size) {}

    /** A JMeter function: its implementing class and the artifact that holds it. */
    public record Function(String key, String className, Coordinates coordinates) {}

    private final Map<String, Plugin> plugins = new LinkedHashMap<>();
    private final Map<String, Jar> jars = new HashMap<>();
    private final Map<String, Coordinates> classes = new HashMap<>();
    private final Map<String, Function> functions = new HashMap<>();

    private final boolean bundled;

    private PluginIndex(boolean bundled) {
        this.bundled = bundled;
    }

    /** The index built into the CLI jar. */
    public static PluginIndex bundled() {
        try (InputStream in = PluginIndex.class.getResourceAsStream("catalogue.tsv")) {
            if (in == null) {
                throw new IllegalStateException("the plugin index is missing from the CLI jar: build it with"
                        + " `mvn -B -DskipTests package` (./stampede does that when needed)");
            }
            return read(in, new PluginIndex(true));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static PluginIndex read(InputStream in) throws IOException {
        return read(in, new PluginIndex(false));
    }

    private static PluginIndex read(InputStream in, PluginIndex index) throws IOException {
        BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        String line;
        while ((line = r.readLine()) != null) {
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split("\t", -1);
            switch (f[0]) {
                case "plugin" -> {
                    List<Coordinates> libs = new ArrayList<>();
                    for (String c : f[3].split(",")) {
                        if (!c.isEmpty()) {
                            libs.add(Coordinates.parse(c));
                        }
                    }
                    index.plugins.put(f[1], new Plugin(f[1], Coordinates.parse(f[2]), List.copyOf(libs)));
                }
                case "jar" -> index.jars.put(f[1], new Jar(Coordinates.parse(f[1]), f[2], Long.parseLong(f[3])));
                case "class" -> index.classes.putIfAbsent(f[1], Coordinates.parse(f[2]));
                case "function" -> index.functions.put(f[1], new Function(f[1], f[2], Coordinates.parse(f[3])));
                default -> throw new IOException("plugin index: unknown line kind " + f[0]);
            }
        }
        return index;
    }

    public List<Plugin> plugins() {
        return List.copyOf(plugins.values());
    }

    /**
     * A plugin by its Plugins Manager id (jpgc-tst), its artifactId (jmeter-plugins-tst) or its coordinates with or
     * without the version.
     */
    public Optional<Plugin> plugin(String name) {
        Plugin byId = plugins.get(name);
        if (byId != null) {
            return Optional.of(byId);
        }
        return plugins.values().stream().filter(p -> p.coordinates().artifact().equals(name)
                || p.coordinates().key().equals(name) || p.coordinates().toString().equals(name)).findFirst();
    }

    /** The jar holding a class, as indexed. */
    public Optional<Coordinates> jarOf(String className) {
        if (classes.isEmpty() && bundled) {
            // thousands of lines, read only when a plan names a class its JMeter lacks
            try (InputStream in = PluginIndex.class.getResourceAsStream("classes.tsv")) {
                if (in != null) {
                    read(in, this);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return Optional.ofNullable(classes.get(className));
    }

    /** The plugin that brings a jar: the one whose own jar it is, else the first that needs it as a library. */
    public Optional<Plugin> pluginWith(Coordinates jar) {
        for (Plugin p : plugins.values()) {
            if (p.coordinates().equals(jar)) {
                return Optional.of(p);
            }
        }
        return plugins.values().stream().filter(p -> p.libraries().contains(jar)).findFirst();
    }

    public Optional<Function> function(String key) {
        return Optional.ofNullable(functions.get(key));
    }

    public Optional<Jar> jar(Coordinates coordinates) {
        return Optional.ofNullable(jars.get(coordinates.toString()));
    }
}
