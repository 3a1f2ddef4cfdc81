/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.support;

import io.stampede.results.CsvLine;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Predicate;

/** The rows of a CSV JTL written with a header line (JMeter's {@code print_field_names=true}). */
public final class Jtl {

    private final List<String> header;
    private final List<JtlRow> rows;

    private Jtl(List<String> header, List<JtlRow> rows) {
        this.header = List.copyOf(header);
        this.rows = List.copyOf(rows);
    }

    /** Reads the whole file; for multi-million-row files use {@link #scan(Path, Consumer)}. */
    public static Jtl read(Path file) {
        List<JtlRow> rows = new ArrayList<>();
        List<String> header = scan(file, rows::add);
        return new Jtl(header, rows);
    }

    /** Streams the rows to {@code consumer} without keeping them; returns the header. */
    public static List<String> scan(Path file, Consumer<JtlRow> consumer) {
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String first = in.readLine();
            if (first == null) {
                throw new IllegalStateException("JTL " + file + " is empty: JMeter wrote no header"
                        + " (is jmeter.save.saveservice.print_field_names=true?)");
            }
            List<String> header = CsvLine.split(first);
            if (!header.contains("timeStamp") || !header.contains("label")) {
                throw new IllegalStateException("JTL " + file + " has no CSV header, first line: " + first);
            }
            Map<String, Integer> index = new LinkedHashMap<>();
            for (int i = 0; i < header.size(); i++) {
                index.put(header.get(i), i);
            }
            String line;
            while ((line = in.readLine()) != null) {
                // A quoted field may hold line breaks (failure messages): join until the quotes balance.
                while (CsvLine.oddQuotes(line)) {
                    String next = in.readLine();
                    if (next == null) {
                        break;
                    }
                    line = line + "\n" + next;
                }
                if (!line.isEmpty()) {
                    consumer.accept(new JtlRow(index, CsvLine.split(line)));
                }
            }
            return header;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read JTL " + file, e);
        }
    }

    public List<String> header() {
        return header;
    }

    public List<JtlRow> rows() {
        return rows;
    }

    /** The most of these samples whose times overlap at one instant (one ending as another starts: no overlap). */
    public static int mostAtOnce(List<JtlRow> rows) {
        List<long[]> edges = new ArrayList<>();
        for (JtlRow r : rows) {
            edges.add(new long[] {r.timeStamp(), 1});
            edges.add(new long[] {r.timeStamp() + r.elapsed(), -1});
        }
        edges.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        int now = 0;
        int most = 0;
        for (long[] e : edges) {
            now += (int) e[1];
            most = Math.max(most, now);
        }
        return most;
    }

    public int count() {
        return rows.size();
    }

    public Jtl filter(Predicate<JtlRow> predicate) {
        return new Jtl(header, rows.stream().filter(predicate).toList());
    }

    public Jtl label(String label) {
        return filter(row -> row.label().equals(label));
    }

    public int count(String label) {
        return label(label).count();
    }

    /** Failed samples (success=false). */
    public int errors() {
        return (int) rows.stream().filter(row -> !row.success()).count();
    }

    public Set<String> statusCodes() {
        return new TreeSet<>(rows.stream().map(JtlRow::responseCode).toList());
    }

    public Set<String> labels() {
        return new TreeSet<>(rows.stream().map(JtlRow::label).toList());
    }

    public Set<Long> distinctBytes() {
        return new TreeSet<>(rows.stream().map(JtlRow::bytes).toList());
    }

    public long sumBytes() {
        return rows.stream().mapToLong(JtlRow::bytes).sum();
    }

    /** Samples that opened a connection, as JMeter reports it: Connect above 0 ms. */
    public int connectsAboveZero() {
        return (int) rows.stream().filter(row -> row.connect() > 0).count();
    }

    /** Rows per JMeter thread name, in file order. */
    public Map<String, Jtl> byThread() {
        Map<String, List<JtlRow>> groups = new LinkedHashMap<>();
        rows.forEach(row -> groups.computeIfAbsent(row.threadName(), k -> new ArrayList<>()).add(row));
        Map<String, Jtl> result = new LinkedHashMap<>();
        groups.forEach((thread, list) -> result.put(thread, new Jtl(header, list)));
        return result;
    }
}
