/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.doctor;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.EnumMap;
import java.util.Map;

/**
 * A local server's error log (e.g. nginx's error.log), read for the lines written while a run went on: where it
 * stood when the run started is remembered, and only what was appended since is counted. A log that shrank in the
 * meantime (rotated) is read from its start.
 */
public final class ServerLog {

    private final Path file;
    private final long startOffset;

    private ServerLog(Path file, long startOffset) {
        this.file = file;
        this.startOffset = startOffset;
    }

    /** Remembers the log's current end; the file may not exist yet (the server creates it). */
    public static ServerLog watch(Path file) {
        try {
            return new ServerLog(file, Files.exists(file) ? Files.size(file) : 0);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the server log " + file + ": " + e.getMessage(), e);
        }
    }

    public Path file() {
        return file;
    }

    /** Counts the events in what was written since {@link #watch}. */
    public ServerLogFindings read() throws IOException {
        Map<ServerLogEvent, Long> counts = new EnumMap<>(ServerLogEvent.class);
        if (Files.exists(file)) {
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
                ch.position(ch.size() < startOffset ? 0 : startOffset);
                BufferedReader in = new BufferedReader(new InputStreamReader(Channels.newInputStream(ch),
                        StandardCharsets.UTF_8));
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    ServerLogEvent.of(line).ifPresent(e -> counts.merge(e, 1L, Long::sum));
                }
            }
        }
        return new ServerLogFindings(file, counts);
    }
}
