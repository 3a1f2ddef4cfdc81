/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.plugins;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/** A JMeter home folder with the jars a test gives it (real jar files: names, classes, pom.properties). */
final class FakeHome {

    private FakeHome() {}

    /** A jar at {@code home/relative} holding these entries (empty files; pom.properties as given). */
    static Path jar(Path home, String relative, String... entries) throws IOException {
        Path jar = home.resolve(relative);
        Files.createDirectories(jar.getParent());
        try (OutputStream out = Files.newOutputStream(jar); ZipOutputStream zip = new ZipOutputStream(out)) {
            for (String e : entries) {
                int eq = e.indexOf('=');
                zip.putNextEntry(new ZipEntry(eq < 0 ? e : e.substring(0, eq)));
                if (eq >= 0) {
                    zip.write(e.substring(eq + 1).replace(';', '\n').getBytes(StandardCharsets.UTF_8));
                }
                zip.closeEntry();
            }
        }
        return jar;
    }

    /** An index from lines written as in catalogue.tsv, fields separated by spaces. */
    static PluginIndex index(String... lines) throws IOException {
        String text = String.join("\n", lines).replace(' ', '\t');
        return PluginIndex.read(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
    }
}
