/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.validate;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * A real tool that cannot judge a file as it is on this machine judges a changed copy instead, and the verdict
 * carries a note naming the change, so nobody mistakes the pass for one of the file itself.
 */
abstract class CopyCheckingValidator implements FileValidator {

    /** The copy's text, given the temporary folder it is written to (which may hold other files it needs). */
    interface CopyText {
        String in(Path dir) throws IOException;
    }

    final ToolValidator tool;

    CopyCheckingValidator(ToolValidator tool) {
        this.tool = tool;
    }

    @Override
    public final boolean accepts(Path file) {
        return tool.accepts(file);
    }

    /** The tool's verdict on a copy of {@code file} with the given text, followed by the note. */
    final Verdict checkCopy(Path file, String shownName, CopyText text, String note) throws IOException {
        Path dir = null;
        try {
            dir = Files.createTempDirectory("stampede-validate-");
            Path copy = dir.resolve(file.getFileName());
            Files.writeString(copy, text.in(dir));
            Verdict v = tool.check(copy, shownName);
            return new Verdict(v.file(), v.validator(), v.status(), (v.detail().strip() + "\n" + note).strip());
        } finally {
            deleteTree(dir);
        }
    }

    private static void deleteTree(Path dir) {
        if (dir == null) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException leftOver) {
            // a temporary folder left behind must not change the verdict
        }
    }
}
