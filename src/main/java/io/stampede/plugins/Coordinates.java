/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.plugins;

import java.nio.file.Path;

/** A Maven artifact as {@code groupId:artifactId:version}: a jar on Maven Central and in the plugin cache. */
public record Coordinates(String group, String artifact, String version) {

    public Coordinates {
        if (group.isBlank() || artifact.isBlank() || version.isBlank()) {
            throw new IllegalArgumentException("incomplete coordinates " + group + ":" + artifact + ":" + version);
        }
    }

    /** Parses {@code g:a:v}. */
    public static Coordinates parse(String text) {
        String[] p = text.trim().split(":");
        if (p.length != 3) {
            throw new IllegalArgumentException(text + ": give groupId:artifactId:version, e.g. kg.apc:jmeter-plugins-tst:2.5");
        }
        return new Coordinates(p[0], p[1], p[2]);
    }

    /** {@code groupId:artifactId}: the same library in any version. */
    public String key() {
        return group + ":" + artifact;
    }

    public String fileName() {
        return artifact + "-" + version + ".jar";
    }

    /** Where the jar sits in a Maven repository (and in the plugin cache), relative to its root. */
    public Path repositoryPath() {
        return Path.of(group.replace('.', '/'), artifact, version, fileName());
    }

    /** The same path with forward slashes, as in a repository URL. */
    public String urlPath() {
        return group.replace('.', '/') + "/" + artifact + "/" + version + "/" + fileName();
    }

    @Override
    public String toString() {
        return group + ":" + artifact + ":" + version;
    }
}
