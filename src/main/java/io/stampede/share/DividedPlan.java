/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.share;

import io.stampede.names.PluginNames;
import io.stampede.plan.JmxTree;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.w3c.dom.Element;

/**
 * One share of a plan, checked and ready to write: the plan with this share's figures, the CSV rows it may use and
 * what was left whole. Nothing is written until {@link #write}.
 */
public final class DividedPlan {

    /** The folder of a run's results that holds its CSV rows. */
    public static final String DATA_FOLDER = "share-data";

    /** One CSV Data Set's block of rows, written into the results and named in the element instead of the original. */
    record CsvShare(Element filename, Path source, List<String> contents, long rows) {}

    private final JmxTree plan;
    private final ShareText share;
    private final List<CsvShare> csv;
    private final List<String> notes;

    DividedPlan(JmxTree plan, ShareText share, List<CsvShare> csv, List<String> notes) {
        this.plan = plan;
        this.share = share;
        this.csv = List.copyOf(csv);
        this.notes = List.copyOf(notes);
    }

    /** The share an injector runs; empty for remote engines, which take one each. */
    public Optional<Share> share() {
        return share instanceof ShareText.OneShare one ? Optional.of(one.share()) : Optional.empty();
    }

    /**
     * Holds this share's thread groups until {@code start} (the plugin's StartAt element, first under the test plan),
     * so that shares started apart ramp up together.
     */
    public void startAt(Instant start) {
        PlanDivider.leading(plan, PluginNames.START_AT_CLASS, "Stampede: start at " + start, "longProp",
                PluginNames.START_AT_EPOCH_MILLIS, Long.toString(start.toEpochMilli()));
    }

    /** Elements left whole and why, for the run's console. */
    public List<String> notes() {
        return notes;
    }

    /** One line a CSV Data Set, e.g. {@code users.csv: rows 335-667 of 1000}. */
    public List<String> csvLines() {
        return csv.stream().map(c -> c.source().getFileName() + ": its " + c.rows() + " rows divided into "
                + share.count() + " blocks, one per share").toList();
    }

    /**
     * Writes the CSV rows into {@code results}/share-data and the plan JMeter loads ({@link LoadedPlan}).
     *
     * @return the plan to load; delete it when the run ends
     */
    public Path write(Path results) throws IOException {
        Path data = results.resolve(DATA_FOLDER);
        int n = 0;
        for (CsvShare c : csv) {
            Files.createDirectories(data);
            n++;
            List<Path> written = new ArrayList<>();
            for (int i = 0; i < c.contents().size(); i++) {
                Path rows = data.resolve(n + "-" + share.shares().get(i).prefix() + "-" + c.source().getFileName());
                written.add(Files.writeString(rows, c.contents().get(i), StandardCharsets.UTF_8).toAbsolutePath());
            }
            c.filename().setTextContent(share.files(written));
        }
        return LoadedPlan.write(plan, "share-of-" + share.count(), results);
    }
}
