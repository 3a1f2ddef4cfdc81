/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.distributed;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A temporary folder only this user can enter (0700), for the files a JMeter child reads at start: property files
 * with passwords (0600). A random name under the system's temporary folder, so no one can
 * place or swap a file there beforehand, unlike a fixed name in the current folder; removed on close.
 */
public final class PrivateFolder implements AutoCloseable {
    static final FileAttribute<Set<PosixFilePermission>> OWNER_ONLY_DIR =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"));
    static final FileAttribute<Set<PosixFilePermission>> OWNER_ONLY_FILE =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));

    private final Path dir;

    private PrivateFolder(Path dir) {
        this.dir = dir;
    }

    public static PrivateFolder create(String prefix) throws IOException {
        return new PrivateFolder(Files.createTempDirectory(prefix, OWNER_ONLY_DIR));
    }

    public Path dir() {
        return dir;
    }

    /** Writes {@code text} to a new file {@code name} with mode 0600. */
    public Path write(String name, String text) throws IOException {
        Path f = Files.createFile(dir.resolve(name), OWNER_ONLY_FILE);
        return Files.writeString(f, text, StandardCharsets.UTF_8);
    }

    /** {@code values} as a Java properties file (JMeter's {@code -q}), mode 0600. */
    public Path writeProperties(String name, Map<String, String> values) throws IOException {
        Properties p = new Properties();
        p.putAll(values);
        StringWriter text = new StringWriter();
        p.store(text, null);
        return write(name, text.toString());
    }

    /** Idempotent: a Ctrl-C hook and the normal end may both close it. */
    @Override
    public synchronized void close() {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove " + dir, e);
        }
    }
}
