/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.remote;

import io.stampede.names.PluginNames;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.samplers.SampleSaveConfiguration;
import org.apache.jmeter.save.CSVSaveService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An engine's own samples, for the live metrics of `stampede server --metrics`: CSV JTL rows (JMeter's
 * CSVSaveService, with the columns the CLI's metrics read and the sample variables) appended to numbered files in
 * the folder the engine's {@value PluginNames#ENGINE_SAMPLES_DIR} property names. The CLI reads each file as it grows
 * and deletes it once a later one exists or the stream ended ({@code <stream>.end}), so the folder holds at most
 * about one file of rows a stream, however long the test. Rows are written by the sampling threads, as JMeter's own
 * ResultCollector writes a local run's JTL. A write that fails stops the spool, logged once: the samples still go to
 * the controller, only the engine's metrics stop counting.
 */
final class EngineSampleSpool {
    private static final Logger LOG = LoggerFactory.getLogger(EngineSampleSpool.class);
    /** Rows a file holds before the next one starts (about 10 MB). */
    static final int ROWS_PER_FILE = 100_000;
    static final String ROWS = ".jtl";
    static final String END = ".end";

    private final Path dir;
    private final String stream;
    private final int rowsPerFile;
    private final SampleSaveConfiguration columns = columns();
    private Writer out;
    private int file;
    private int rows;
    private boolean failed;

    EngineSampleSpool(Path dir, String stream, int rowsPerFile) {
        this.dir = dir;
        this.stream = stream;
        this.rowsPerFile = rowsPerFile;
    }

    /** The spool into the folder the engine's property names; null when it names none (no --metrics). */
    static EngineSampleSpool ofProperty(String folder) {
        if (folder == null || folder.isBlank()) {
            return null;
        }
        // streams sort by their start: one per sample sender of a test (one per result listener of the plan)
        String stream = String.format(Locale.ROOT, "%013d-%016x", System.currentTimeMillis(), System.nanoTime());
        return new EngineSampleSpool(Path.of(folder), stream, ROWS_PER_FILE);
    }

    /** JMeter's CSV columns that summaries read: time stamp in ms, elapsed, label, code, message, success, threads. */
    private static SampleSaveConfiguration columns() {
        SampleSaveConfiguration c = new SampleSaveConfiguration(false);
        c.setDelimiter(",");
        c.setDateFormat(null);
        c.setTimestamp(true);
        c.setTime(true);
        c.setLabel(true);
        c.setCode(true);
        c.setMessage(true);
        c.setSuccess(true);
        c.setThreadCounts(true);
        c.setFieldNames(true);
        return c;
    }

    synchronized void write(SampleEvent e) {
        if (failed) {
            return;
        }
        try {
            if (out == null || rows >= rowsPerFile) {
                next();
            }
            out.write(CSVSaveService.resultToDelimitedString(e, e.getResult(), columns, ","));
            out.write('\n');
            rows++;
        } catch (IOException | RuntimeException ex) {
            fail(ex);
        }
    }

    /** The rows so far where the CLI reads them (at every batch the sender sends, so the metrics stay live). */
    synchronized void flush() {
        if (out != null && !failed) {
            try {
                out.flush();
            } catch (IOException ex) {
                fail(ex);
            }
        }
    }

    /** The last rows written and the stream's end marked. */
    synchronized void close() {
        try {
            if (out != null) {
                out.close();
            }
            Files.writeString(dir.resolve(stream + END), "", StandardCharsets.US_ASCII);
        } catch (IOException ex) {
            fail(ex);
        }
        out = null;
        failed = true;
    }

    /** Closes the file and starts the next, header first: the CLI reads a file whole once the next one exists. */
    private void next() throws IOException {
        if (out != null) {
            out.close();
        }
        file++;
        rows = 0;
        Path f = dir.resolve(String.format(Locale.ROOT, "%s-%06d%s", stream, file, ROWS));
        out = Files.newBufferedWriter(f, StandardCharsets.UTF_8);
        out.write(CSVSaveService.printableFieldNamesToString(columns));
        out.write('\n');
    }

    private void fail(Exception ex) {
        if (!failed) {
            failed = true;
            LOG.warn("The engine's samples for its metrics (stampede server --metrics) cannot be written to {}: the"
                    + " metrics stop counting this test's samples; the controller still gets them ({})", dir,
                    ex.toString());
        }
    }
}
