/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.render;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;

/**
 * Writes rendered files so that DIR is either untouched or complete: everything goes to a temporary sibling
 * first, which is then renamed into place (replacing an older rendering only when asked to).
 */
public final class OutputWriter {

    public void write(List<RenderedFile> files, Path dir, boolean replace) throws IOException {
        Path target = dir.toAbsolutePath().normalize();
        if (Files.exists(target) && !replace && !isEmptyDirectory(target)) {
            throw new IOException(target + " already exists and is not empty; use --force to replace it");
        }
        Path parent = target.getParent();
        Files.createDirectories(parent);
        Path temp = Files.createTempDirectory(parent, "." + target.getFileName() + ".rendering-");
        try {
            for (RenderedFile f : files) {
                Path p = temp.resolve(f.relativePath());
                Files.createDirectories(p.getParent());
                Files.writeString(p, f.content());
            }
            Path old = null;
            if (Files.exists(target)) {
                old = Files.createTempDirectory(parent, "." + target.getFileName() + ".old-");
                Files.delete(old);
                move(target, old);
            }
            move(temp, target);
            if (old != null) {
                deleteTree(old);
            }
        } finally {
            if (Files.exists(temp)) {
                deleteTree(temp);
            }
        }
    }

    private static boolean isEmptyDirectory(Path p) throws IOException {
        if (!Files.isDirectory(p)) {
            return false;
        }
        try (var s = Files.list(p)) {
            return s.findAny().isEmpty();
        }
    }

    private static void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to);
        }
    }

    public static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
                Files.delete(d);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
