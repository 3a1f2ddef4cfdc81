/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The lines of a JTL that JMeter is still writing that hold every one of some strings (e.g. a successful login's
 * {@code ,login,} and {@code ,true,}), counted as they are appended: each look reads only what was written since the
 * last one, up to its last complete line, so watching a file of millions of samples once a second stays cheap.
 */
final class JtlLineCount {
    private final Path file;
    private final String[] needles;
    private final ByteBuffer buffer = ByteBuffer.allocate(1 << 16);
    private final StringBuilder partial = new StringBuilder();
    private long position;
    private long count;

    JtlLineCount(Path file, String... needles) {
        this.file = file;
        this.needles = needles.clone();
    }

    /** The matching lines written so far (0 before the file exists). */
    long count() {
        if (!Files.exists(file)) {
            return count;
        }
        try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
            int n;
            while ((n = in.read(buffer.clear(), position)) > 0) {
                position += n;
                // One char per byte: a UTF-8 character cut between two reads stays whole, and ASCII needles match.
                partial.append(new String(buffer.array(), 0, n, StandardCharsets.ISO_8859_1));
                int end;
                while ((end = partial.indexOf("\n")) >= 0) {
                    if (matches(partial, end)) {
                        count++;
                    }
                    partial.delete(0, end + 1);
                }
            }
        } catch (IOException e) {
            return count; // the next look reads on from the same place
        }
        return count;
    }

    private boolean matches(CharSequence text, int end) {
        String line = text.subSequence(0, end).toString();
        for (String needle : needles) {
            if (!line.contains(needle)) {
                return false;
            }
        }
        return true;
    }
}
