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
 * first, which is then renamed into place. An existing DIR is replaced only when asked to and only when an
 * earlier rendering wrote it (it holds {@link #MARKER}); the folder the user works in is never replaced. Every
 * message says what is on disk afterwards.
 */
public final class OutputWriter {

    /** Written into every rendering; --force replaces only a folder holding it. */
    public static final String MARKER = ".stampede-rendering";
    static final String MARKER_TEXT = "Written by 'stampede cluster render'. 'cluster render --force' replaces a"
            + " folder only when it holds this file.\n";

    /** A rename; the tests put a failing one in to see what a failure in the middle leaves behind. */
    interface Mover {
        void move(Path from, Path to) throws IOException;
    }

    private final Mover mover;

    public OutputWriter() {
        this(OutputWriter::move);
    }

    OutputWriter(Mover mover) {
        this.mover = mover;
    }

    /** Writes the files into {@code dir}; the exception's message says what was and was not written. */
    public void write(List<RenderedFile> files, Path dir, boolean replace) throws IOException {
        Path target = dir.toAbsolutePath().normalize();
        refuseUnsafeTarget(target, replace);
        Path parent = target.getParent();
        Path temp;
        try {
            Files.createDirectories(parent);
            temp = Files.createTempDirectory(parent, "." + target.getFileName() + ".rendering-");
        } catch (IOException e) {
            throw new IOException("cannot write next to " + target + ": " + e.getMessage() + " (nothing was written)", e);
        }
        try {
            try {
                for (RenderedFile f : files) {
                    Path p = temp.resolve(f.relativePath());
                    Files.createDirectories(p.getParent());
                    Files.writeString(p, f.content());
                }
                Files.writeString(temp.resolve(MARKER), MARKER_TEXT);
            } catch (IOException e) {
                throw new IOException("cannot write the rendering: " + e + " (nothing was written)", e);
            }
            swapIn(temp, target);
        } finally {
            if (Files.exists(temp)) {
                deleteTree(temp);
            }
        }
    }

    private static void refuseUnsafeTarget(Path target, boolean replace) throws IOException {
        Path cwd = Path.of("").toAbsolutePath().normalize();
        if (cwd.startsWith(target)) {
            throw new IOException(target + " is the current folder or holds it; a rendering replaces its output"
                    + " folder as a whole, so it never goes there. Render into a subfolder, e.g. -o rendered"
                    + " (nothing was written)");
        }
        if (!Files.exists(target) || isEmptyDirectory(target)) {
            return;
        }
        if (!replace) {
            throw new IOException(target + " already exists and is not empty; use --force to replace an earlier"
                    + " rendering (nothing was written)");
        }
        if (!Files.isRegularFile(target.resolve(MARKER))) {
            throw new IOException(target + " was not written by 'stampede cluster render' (it holds no " + MARKER
                    + " file), so --force does not replace it. Choose a new or empty folder, or remove this one"
                    + " yourself if you mean to (nothing was written)");
        }
    }

    /** Renames the finished rendering into place, the old one aside first; says where things are on failure. */
    private void swapIn(Path temp, Path target) throws IOException {
        Path parent = target.getParent();
        Path old = null;
        if (Files.exists(target)) {
            old = Files.createTempDirectory(parent, "." + target.getFileName() + ".old-");
            Files.delete(old);
            try {
                mover.move(target, old);
            } catch (IOException e) {
                throw new IOException("cannot move the earlier rendering " + target + " aside: " + e
                        + " (nothing was written; " + target + " is as it was)", e);
            }
        }
        try {
            mover.move(temp, target);
        } catch (IOException e) {
            if (old == null) {
                throw new IOException("cannot move the new rendering to " + target + ": " + e
                        + " (nothing was written)", e);
            }
            try {
                mover.move(old, target);
            } catch (IOException back) {
                throw new IOException("cannot move the new rendering to " + target + ": " + e + "; the earlier"
                        + " rendering was moved aside to " + old + " and could not be moved back (" + back
                        + "). Restore it with: mv " + old + " " + target, e);
            }
            throw new IOException("cannot move the new rendering to " + target + ": " + e + " (the earlier"
                    + " rendering was put back; " + target + " is as it was)", e);
        }
        if (old != null) {
            try {
                deleteTree(old);
            } catch (IOException e) {
                throw new IOException("the new rendering is in " + target + ", but the earlier one could not be"
                        + " removed from " + old + ": " + e + "; remove it yourself", e);
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
