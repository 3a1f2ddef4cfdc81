/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.compare;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.HdrHistogram.Histogram;

/** The side-by-side table and the verdicts, as text: printed and written to compare.txt. */
public final class TextReport {
    private static final int FIRST = 12;
    private static final int COLUMN = 34;

    private TextReport() {}

    /** Everything the report says; {@code verdicts} collects the verdict lines for the HTML page too. */
    public static List<String> lines(List<Configuration> configs, CompareSettings settings, List<String> verdicts) {
        List<String> out = new ArrayList<>();
        Configuration base = configs.get(0);
        out.add(String.format(Locale.ROOT, "stampede compare: %d configurations, baseline %s; ± = simultaneous 95 %% "
                + "intervals (99 %% each) from %d bootstrap resamples of 1-s windows%s", configs.size(), base.name(), settings.replicates(),
                configs.stream().anyMatch(c -> c.runs().size() > 1) ? " within rounds" : "")
                + (settings.warmupSeconds() > 0 ? "; each run's first " + settings.warmupSeconds() + " s left out"
                : ""));
        for (Configuration c : configs) {
            out.add(String.format(Locale.ROOT, "  %-10s %d run%s, latency %s: %s", c.name(), c.runs().size(),
                    c.runs().size() == 1 ? "" : "s", describeKind(c.latencyKind()),
                    c.runs().stream().map(r -> r.folder().toString()).collect(Collectors.joining(", "))));
        }
        Set<String> plans = new LinkedHashSet<>();
        configs.forEach(c -> c.runs().forEach(r -> plans.add(r.plan())));
        if (plans.size() > 1) {
            out.add("  WARNING: the runs come from different plans (" + String.join(", ", plans)
                    + "): the comparison is only as fair as the plans are alike");
        }
        out.add("");
        out.addAll(table("overall", configs, null, settings, verdicts));
        Set<String> labels = new LinkedHashSet<>();
        configs.forEach(c -> labels.addAll(c.labels()));
        if (labels.size() > 1) {
            for (String label : labels) {
                out.add("");
                out.addAll(table("label " + label, configs, label, settings, null));
            }
        }
        out.add("");
        out.add("injector (each run):");
        configs.forEach(c -> c.runs().forEach(r -> out.add("  " + pad(r.name(), FIRST)
                + r.injector().line().replace("\n", "\n  " + " ".repeat(FIRST)))));
        out.add("");
        out.add("verdict (overall):");
        verdicts.forEach(v -> out.add("  " + v));
        return out;
    }

    private static String describeKind(String kind) {
        return switch (kind) {
            case "corrected" -> "from the intended send time (corrected for coordinated omission)";
            case "mixed" -> "corrected where recorded, elapsed elsewhere";
            default -> "elapsed (no schedule: nothing to correct)";
        };
    }

    private static List<String> table(String title, List<Configuration> configs, String label,
                                      CompareSettings settings, List<String> verdicts) {
        Configuration base = configs.get(0);
        List<List<Estimate>> estimates = new ArrayList<>();
        for (int i = 1; i < configs.size(); i++) {
            List<List<Window>> a = base.windows(label);
            List<List<Window>> b = configs.get(i).windows(label);
            estimates.add(a.isEmpty() || b.isEmpty() ? null
                    : Comparison.of(a, b, settings.replicates(), settings.seed() + i));
        }
        List<String> rows = new ArrayList<>();
        if (label != null) {
            rows.add(title);
        }
        rows.add(pad(label == null ? title : "", FIRST) + configs.stream().map(c -> pad(c.name() + (c == base ? " (baseline)" : ""),
                COLUMN)).collect(Collectors.joining()));
        rows.add(row("samples", configs, c -> String.format(Locale.ROOT, "%,d", c.samples(label)), null));
        rows.add(row("req/s", configs, c -> label == null ? String.format(Locale.ROOT, "%.1f", c.requestsPerSecond())
                : String.format(Locale.ROOT, "%.1f", rate(c, label)), i -> rateDelta(estimates.get(i - 1))));
        rows.add(row("errors", configs, c -> errors(c, label), null));
        for (int k = 0; k < Comparison.NAMES.length; k++) {
            int kk = k;
            rows.add(row(Comparison.NAMES[k] + " ms", configs, c -> Verdict.ms(histogram(c, label)
                    .getValueAtPercentile(Comparison.PERCENTILES[kk]) / 1000.0), i -> latencyDelta(
                    estimates.get(i - 1) == null ? null : estimates.get(i - 1).get(kk))));
        }
        rows.add(row("max ms", configs, c -> Verdict.ms(histogram(c, label).getMaxValue() / 1000.0), null));
        if (label == null) {
            rows.add(row("injector", configs, c -> injectorCell(c), null));
            for (int i = 1; i < configs.size(); i++) {
                List<Estimate> e = estimates.get(i - 1);
                if (e == null) {
                    continue;
                }
                List<String> said = new ArrayList<>();
                boolean any = false;
                for (Estimate est : e) {
                    Verdict v = Verdict.of(configs.get(i).name(), est, settings.margin());
                    if (v.significant()) {
                        said.add(v.text());
                        any = true;
                    }
                }
                if (!any) {
                    said.add(configs.get(i).name() + ": no significant difference from " + base.name()
                            + " (p50 to p99.9 and req/s)");
                }
                if (verdicts != null) {
                    verdicts.addAll(said);
                }
            }
            if (verdicts != null) {
                for (Configuration c : configs) {
                    for (RunData r : c.runs()) {
                        if (r.injector().suspect()) {
                            verdicts.add("SUSPECT injector in " + r.name() + ": "
                                    + String.join("; ", r.injector().suspicions()));
                        }
                    }
                }
            }
        }
        return rows;
    }

    private static double rate(Configuration c, String label) {
        long span = c.runs().stream().mapToLong(RunData::spanMs).sum();
        return span == 0 ? 0 : c.samples(label) * 1000.0 / span;
    }

    private static Histogram histogram(Configuration c, String label) {
        return label == null ? c.mergedHistogram() : c.mergedHistogram(label);
    }

    private static String errors(Configuration c, String label) {
        long n = c.errors(label);
        if (n == 0 || label != null) {
            return String.format(Locale.ROOT, "%,d", n);
        }
        return String.format(Locale.ROOT, "%,d (%s)", n, c.errorsByKind().entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", ")));
    }

    private static String injectorCell(Configuration c) {
        return c.runs().stream().map(r -> r.injector().suspect() ? "SUSPECT" : "ok").distinct()
                .collect(Collectors.joining("/"));
    }

    private static String latencyDelta(Estimate e) {
        if (e == null) {
            return "";
        }
        return String.format(Locale.ROOT, " %s%s ±%s x%.2f", e.difference() >= 0 ? "+" : "-",
                Verdict.ms(Math.abs(e.difference()) / 1000), Verdict.ms(e.halfWidth() / 1000), e.ratio());
    }

    private static String rateDelta(List<Estimate> e) {
        if (e == null) {
            return "";
        }
        Estimate r = e.get(e.size() - 1);
        return String.format(Locale.ROOT, " %+.1f %% ±%.1f", (r.ratio() - 1) * 100, (r.ratioHi() - r.ratioLo()) / 2
                * 100);
    }

    private interface Cell {
        String of(Configuration c);
    }

    private interface Delta {
        String of(int index);
    }

    private static String row(String name, List<Configuration> configs, Cell cell, Delta delta) {
        StringBuilder s = new StringBuilder(pad("  " + name, FIRST));
        for (int i = 0; i < configs.size(); i++) {
            String v = cell.of(configs.get(i));
            if (i > 0 && delta != null) {
                v += delta.of(i);
            }
            s.append(pad(v, COLUMN));
        }
        return s.toString().stripTrailing();
    }

    private static String pad(String s, int width) {
        return s.length() >= width ? s + " " : s + " ".repeat(width - s.length());
    }
}
