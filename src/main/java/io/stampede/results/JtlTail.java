/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.results;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * Reads a CSV JTL while JMeter is still writing it: each call hands over the rows completed since the last
 * call, so progress can be shown without waiting for the end of the run.
 */
public final class JtlTail implements AutoCloseable {

    private final Path file;
    private RandomAccessFile in;
    private final byte[] buffer = new byte[1 << 16];
    private final StringBuilder pending = new StringBuilder();
    private final StringBuilder record = new StringBuilder();
    /** The row read so far ends inside a quoted field. */
    private boolean inQuotes;
    private JtlHeader header;

    public JtlTail(Path file) {
        this.file = file;
    }

    /** Hands every newly completed row to {@code sink}; returns how many. */
    public int poll(Consumer<Sample> sink) throws IOException {
        if (in == null) {
            if (!Files.exists(file)) {
                return 0;
            }
            in = new RandomAccessFile(file.toFile(), "r");
        }
        int rows = 0;
        int n;
        while ((n = in.read(buffer)) > 0) {
            pending.append(new String(buffer, 0, n, StandardCharsets.UTF_8));
            rows += drainLines(sink);
        }
        return rows;
    }

    private int drainLines(Consumer<Sample> sink) {
        int rows = 0;
        int start = 0;
        int nl;
        while ((nl = pending.indexOf("\n", start)) >= 0) {
            String line = pending.substring(start, nl > start && pending.charAt(nl - 1) == '\r' ? nl - 1 : nl);
            start = nl + 1;
            boolean continuing = inQuotes;
            if (continuing) {
                record.append('\n').append(line);
            }
            if (CsvLine.oddQuotes(line)) {
                inQuotes = !inQuotes;
            }
            if (inQuotes) {
                if (!continuing) {
                    record.append(line);
                }
                continue; // a quoted field holds a newline; the row goes on
            }
            // Most rows are one line: only a row that spanned lines is copied out of the record.
            String complete = continuing ? record.toString() : line;
            record.setLength(0);
            if (header == null) {
                header = JtlHeader.parse(complete);
            } else if (!complete.isEmpty()) {
                sink.accept(Sample.of(header, CsvLine.split(complete)));
                rows++;
            }
        }
        pending.delete(0, start);
        return rows;
    }

    /**
     * Whether what was read so far ends inside a row. JMeter writes whole rows and flushes at its end, so after it
     * exited this means the file was cut short (a write that failed, such as on a full disk).
     */
    public boolean endsMidRow() {
        return pending.length() > 0 || inQuotes;
    }

    @Override
    public void close() throws IOException {
        if (in != null) {
            in.close();
        }
    }
}
