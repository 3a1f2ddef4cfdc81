/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.merge;

import io.stampede.injectorhealth.InjectorSeries;
import io.stampede.injectorhealth.InjectorShare;
import io.stampede.results.JtlTail;
import io.stampede.results.LatencyHistogramFile;
import io.stampede.results.LatencyWindows;
import io.stampede.results.RunStatistics;
import io.stampede.run.RunSummary;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.HdrHistogram.Histogram;

/**
 * The merged summary: the whole test as one run (from the merged JTL and the added-up histograms), then each
 * injector's own line, with its share of the samples, its latencies and its own CPU, GC and stalls side by side.
 */
final class MergeReport {

    private MergeReport() {}

    static List<String> lines(ShareFolders shares, Path mergedJtl, Map<String, Histogram> merged, int windowSeconds,
                              Optional<Integer> steadyAfterSeconds, Path out) throws IOException {
        List<String> lines = new ArrayList<>();
        ShareFolder first = shares.folders().get(0);
        lines.add("stampede merge: " + first.record().plan() + ", " + shares.folders().size() + " share(s) of "
                + first.record().share().count() + ": " + String.join(" ", shares.folders().stream()
                        .map(ShareFolder::name).toList()));
        shares.notes().forEach(n -> lines.add("  note: " + n));
        LatencyWindows windows = new LatencyWindows(windowSeconds * 1000L);
        RunStatistics all = statistics(mergedJtl, windows);
        lines.addAll(RunSummary.lines(all));
        lines.add("  from latency.hlog (every share's histogram added up, not percentiles averaged):");
        lines.addAll(LatencyHistogramFile.summaryLines(merged));
        lines.addAll(windows.lines());
        steadyAfterSeconds.ifPresent(sec -> lines.add(windows.steadyLine(sec * 1000L)));
        lines.add("  per injector:");
        for (ShareFolder f : shares.folders()) {
            RunStatistics s = statistics(f.jtl(), null);
            Histogram h = LatencyHistogramFile.read(f.histogram()).get(LatencyHistogramFile.ELAPSED);
            lines.add(String.format(Locale.ROOT, "    %-8s samples %,d in %.1f s = %,.0f req/s  errors %,d (%.3f%%)  %s",
                    f.name(), s.samples(), s.spanMs() / 1000.0, s.requestsPerSecond(), s.errors(),
                    s.errorRate() * 100, h == null ? "no histogram" : LatencyHistogramFile.percentileLine(h)));
            Optional<InjectorSeries> series = InjectorSeries.readIfPresent(f.dir());
            if (series.isPresent()) {
                Path copy = out.resolve("injector-" + f.name() + ".csv");
                Files.copy(f.dir().resolve(InjectorSeries.FILE), copy);
                for (String l : new InjectorShare(0, 0, 0, series, s.spanMs()).line().split("\n")) {
                    lines.add("    " + f.name() + "   " + l.strip());
                }
                lines.add("    " + f.name() + "   series " + copy.getFileName());
            } else {
                lines.add("    " + f.name() + "   no injector series in " + f.dir());
            }
        }
        return lines;
    }

    /** Every sample of a finished JTL, also into {@code windows} when given. */
    static RunStatistics statistics(Path jtl, LatencyWindows windows) throws IOException {
        RunStatistics stats = new RunStatistics();
        try (JtlTail tail = new JtlTail(jtl)) {
            tail.poll(s -> {
                stats.add(s);
                if (windows != null) {
                    windows.add(s);
                }
            });
        }
        return stats;
    }
}
