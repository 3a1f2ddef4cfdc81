/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.share;

import java.util.ArrayList;
import java.util.List;

/**
 * A CSV Data Set file cut into records as JMeter's CSV Data Set reads them: one a line, or with quoted data a
 * quoted field may hold line breaks. Each record keeps its own line ending, so a share's file is the original's
 * bytes for the rows it holds.
 *
 * @param header the records every share keeps: the variable names line or the first line JMeter skips (or none)
 * @param rows the data records, in order
 */
record CsvRows(List<String> header, List<String> rows) {

    CsvRows {
        header = List.copyOf(header);
        rows = List.copyOf(rows);
    }

    /**
     * @param headerLines records at the top that are not data (0 or 1)
     * @param quoted whether quoted fields may span lines (the element's "Allow quoted data?")
     */
    static CsvRows of(String text, int headerLines, boolean quoted) {
        List<String> records = new ArrayList<>();
        int start = 0;
        boolean inQuotes = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quoted && c == '"') {
                inQuotes = !inQuotes;
            } else if (c == '\n' && !inQuotes) {
                records.add(text.substring(start, i + 1));
                start = i + 1;
            }
        }
        if (start < text.length()) {
            records.add(text.substring(start) + "\n");
        }
        // blank lines at the end are not rows JMeter hands out
        while (!records.isEmpty() && records.get(records.size() - 1).isBlank()) {
            records.remove(records.size() - 1);
        }
        int h = Math.min(headerLines, records.size());
        return new CsvRows(records.subList(0, h), records.subList(h, records.size()));
    }

    /** This share's file: the header records, then its own block of rows. */
    String shareOf(Share share) {
        long from = share.start(rows.size());
        long n = share.of((long) rows.size());
        StringBuilder out = new StringBuilder();
        header.forEach(out::append);
        rows.subList((int) from, (int) (from + n)).forEach(out::append);
        return out.toString();
    }
}
