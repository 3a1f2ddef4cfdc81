/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntPredicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OutputWriterTest {

    @TempDir
    Path tmp;

    private static RenderedFile file(String path, String text) {
        return new RenderedFile(path, "/etc/x", text);
    }

    private long entries(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.count();
        }
    }

    @Test
    void writesTheTreeAndRefusesToOverwriteWithoutForce() throws IOException {
        Path out = tmp.resolve("out");
        new OutputWriter().write(List.of(file("a/b.conf", "one")), out, false);
        assertEquals("one", Files.readString(out.resolve("a/b.conf")));
        IOException e = assertThrows(IOException.class,
                () -> new OutputWriter().write(List.of(file("a/c.conf", "two")), out, false));
        assertTrue(e.getMessage().contains("--force"));
        assertFalse(Files.exists(out.resolve("a/c.conf")));
        new OutputWriter().write(List.of(file("a/c.conf", "two")), out, true);
        assertFalse(Files.exists(out.resolve("a/b.conf")), "a forced render replaces the old tree entirely");
        assertEquals("two", Files.readString(out.resolve("a/c.conf")));
        assertEquals(1, entries(tmp), "no temporary or old directory is left next to the output");
    }

    @Test
    void aFailureHalfwayLeavesTheOldOutputUntouched() throws IOException {
        Path out = tmp.resolve("out");
        new OutputWriter().write(List.of(file("keep.conf", "old")), out, false);
        // the second file needs "x" to be a directory, but the first made it a file: the write fails midway
        List<RenderedFile> clash = List.of(file("x", "1"), file("x/y", "2"));
        assertThrows(IOException.class, () -> new OutputWriter().write(clash, out, true));
        assertEquals("old", Files.readString(out.resolve("keep.conf")));
        assertEquals(2, entries(out), "keep.conf and the marker");
        assertEquals(1, entries(tmp));
    }

    @Test
    void forceReplacesOnlyAFolderAnEarlierRenderingWrote() throws IOException {
        Path notes = tmp.resolve("notes");
        Files.createDirectories(notes);
        Files.writeString(notes.resolve("cluster.yaml"), "the user's own file");
        IOException e = assertThrows(IOException.class,
                () -> new OutputWriter().write(List.of(file("a.conf", "x")), notes, true));
        assertTrue(e.getMessage().contains("was not written by 'stampede cluster render'")
                && e.getMessage().contains(OutputWriter.MARKER) && e.getMessage().endsWith("(nothing was written)"),
                e.getMessage());
        assertEquals("the user's own file", Files.readString(notes.resolve("cluster.yaml")));
        assertEquals(1, entries(notes));
        assertEquals(1, entries(tmp), "no temporary folder is left next to it");
    }

    /** A writer whose renames fail where {@code fails} says so (counting from 1); the others are real renames. */
    private static OutputWriter failingMoves(IntPredicate fails) {
        AtomicInteger moves = new AtomicInteger();
        return new OutputWriter((from, to) -> {
            if (fails.test(moves.incrementAndGet())) {
                throw new IOException("simulated rename failure");
            }
            Files.move(from, to);
        });
    }

    @Test
    void aFailedSecondRenameNamesWhereTheEarlierRenderingIs() throws IOException {
        Path out = tmp.resolve("out");
        new OutputWriter().write(List.of(file("keep.conf", "old")), out, false);
        // the earlier rendering moves aside, then both the new one's rename and the way back fail
        OutputWriter failing = failingMoves(move -> move > 1);
        IOException e = assertThrows(IOException.class, () -> failing.write(List.of(file("new.conf", "new")), out, true));
        assertFalse(Files.exists(out));
        Path aside;
        try (Stream<Path> s = Files.list(tmp)) {
            aside = s.filter(p -> p.getFileName().toString().startsWith(".out.old-")).findFirst().orElseThrow();
        }
        assertEquals("old", Files.readString(aside.resolve("keep.conf")), "the earlier rendering is intact");
        assertTrue(e.getMessage().contains("moved aside to " + aside) && e.getMessage().contains("mv " + aside + " " + out)
                && !e.getMessage().contains("nothing was written"), e.getMessage());
    }

    @Test
    void aFailedRenameWithTheWayBackOpenPutsTheEarlierRenderingBack() throws IOException {
        Path out = tmp.resolve("out");
        new OutputWriter().write(List.of(file("keep.conf", "old")), out, false);
        OutputWriter failing = failingMoves(move -> move == 2);
        IOException e = assertThrows(IOException.class, () -> failing.write(List.of(file("new.conf", "new")), out, true));
        assertTrue(e.getMessage().contains("the earlier rendering was put back"), e.getMessage());
        assertEquals("old", Files.readString(out.resolve("keep.conf")));
        assertEquals(1, entries(tmp), "nothing is left beside it");
    }
}
