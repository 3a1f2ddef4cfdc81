/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.merge;

import io.stampede.results.CsvLine;
import io.stampede.results.JtlHeader;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The shares' JTLs as one, in time order (by timeStamp, the sample's start; ties keep share order, then each file's
 * own order). JMeter writes a sample when it ends, so a JTL is not sorted by start; the rows are sorted in memory
 * (about 200 bytes a sample).
 */
final class JtlMerge {

    private record Row(long timeStamp, String text) {}

    private JtlMerge() {}

    /** Writes the merged JTL; refuses JTLs whose columns differ (runs with other sample_variables or settings). */
    static void write(List<ShareFolder> folders, Path out) throws IOException {
        String header = null;
        Path headerFrom = null;
        List<Row> rows = new ArrayList<>();
        for (ShareFolder f : folders) {
            try (BufferedReader in = Files.newBufferedReader(f.jtl(), StandardCharsets.UTF_8)) {
                String first = in.readLine();
                if (first == null) {
                    throw new MergeRefusal(f.jtl() + " is empty: that share recorded nothing; leave its folder out");
                }
                if (header == null) {
                    header = first;
                    headerFrom = f.jtl();
                } else if (!header.equals(first)) {
                    throw new MergeRefusal(f.jtl() + " has other columns than " + headerFrom + ": the shares ran with"
                            + " different settings; merge the shares of one run only");
                }
                read(in, JtlHeader.parse(first).timeStamp(), f.jtl(), rows);
            }
        }
        rows.sort(Comparator.comparingLong(Row::timeStamp)); // stable: share order, then file order
        try (BufferedWriter w = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
            w.write(header);
            w.write('\n');
            for (Row r : rows) {
                w.write(r.text());
                w.write('\n');
            }
        }
    }

    private static void read(BufferedReader in, int timeStampColumn, Path file, List<Row> rows) throws IOException {
        StringBuilder record = new StringBuilder();
        String line;
        while ((line = in.readLine()) != null) {
            if (record.length() > 0) {
                record.append('\n');
            }
            record.append(line);
            if (CsvLine.oddQuotes(record.toString())) {
                continue; // a quoted field holds a line break: the row goes on
            }
            String text = record.toString();
            record.setLength(0);
            if (text.isEmpty()) {
                continue;
            }
            String stamp = CsvLine.split(text).get(timeStampColumn);
            try {
                rows.add(new Row(Long.parseLong(stamp), text));
            } catch (NumberFormatException e) {
                throw new MergeRefusal(file + ": timeStamp '" + stamp + "' is not in milliseconds: `stampede run`"
                        + " writes them so; merge JTLs written by it");
            }
        }
    }
}
