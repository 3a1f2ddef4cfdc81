/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.compare;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.HdrHistogram.Histogram;

/**
 * compare.html: one self-contained page (uPlot 1.6.32, MIT, vendored from npm and inlined, so it opens offline)
 * with the percentile spectrum of every configuration, throughput and p99 over time of every run, and the
 * report's text.
 */
public final class HtmlReport {
    /** Spectrum x positions: 1/(1-p) from 1 (0 %) to 100,000 (99.999 %), evenly on a log scale. */
    static final int SPECTRUM_POINTS = 200;
    static final double SPECTRUM_MAX = 100_000;

    private HtmlReport() {}

    public static String page(List<Configuration> configs, List<String> text, List<String> verdicts)
            throws IOException {
        StringBuilder data = new StringBuilder("{");
        data.append("\"spectrum\":").append(spectrum(configs)).append(',');
        List<RunData> runs = new ArrayList<>();
        List<String> runNames = new ArrayList<>();
        for (Configuration c : configs) {
            for (int i = 0; i < c.runs().size(); i++) {
                runs.add(c.runs().get(i));
                runNames.add(c.runs().size() == 1 ? c.name() : c.name() + " round " + (i + 1));
            }
        }
        data.append("\"runs\":").append(names(runNames)).append(',');
        data.append("\"throughput\":").append(overTime(runs, false)).append(',');
        data.append("\"p99\":").append(overTime(runs, true));
        data.append('}');
        String title = "stampede compare: " + configs.stream().map(Configuration::name)
                .collect(Collectors.joining(" vs "));
        return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + escape(title)
                + "</title>\n<style>" + resource("uPlot.min.css") + "\nbody{font-family:sans-serif;margin:1em 2em}"
                + "pre{font-size:12px;background:#f6f6f6;padding:.5em}h2{margin-top:1.5em}.verdict{font-weight:bold}"
                + "</style>\n<script>" + resource("uPlot.iife.min.js") + "</script>\n</head><body>\n<h1>"
                + escape(title) + "</h1>\n<ul class=\"verdict\">"
                + verdicts.stream().map(v -> "<li>" + escape(v) + "</li>").collect(Collectors.joining())
                + "</ul>\n<h2>Latency by percentile</h2><div id=\"spectrum\"></div>\n"
                + "<h2>Throughput (req/s) over time</h2><div id=\"throughput\"></div>\n"
                + "<h2>p99 latency (ms) over time</h2><div id=\"p99\"></div>\n"
                + "<h2>Table</h2><pre>" + escape(String.join("\n", text)) + "</pre>\n"
                + "<script>const DATA=" + data + ";\n" + script() + "</script>\n</body></html>\n";
    }

    private static String spectrum(List<Configuration> configs) {
        StringBuilder x = new StringBuilder("[");
        for (int i = 0; i < SPECTRUM_POINTS; i++) {
            x.append(i == 0 ? "" : ",").append(num(xAt(i)));
        }
        x.append(']');
        List<String> series = new ArrayList<>();
        for (Configuration c : configs) {
            Histogram h = c.mergedHistogram();
            StringBuilder y = new StringBuilder("[");
            for (int i = 0; i < SPECTRUM_POINTS; i++) {
                double p = 100 * (1 - 1 / xAt(i));
                y.append(i == 0 ? "" : ",").append(num(h.getValueAtPercentile(p) / 1000.0));
            }
            series.add(y.append(']').toString());
        }
        return "{\"names\":" + names(configs.stream().map(Configuration::name).toList()) + ",\"x\":" + x
                + ",\"y\":[" + String.join(",", series) + "]}";
    }

    static double xAt(int i) {
        return Math.pow(SPECTRUM_MAX, (double) i / (SPECTRUM_POINTS - 1));
    }

    /** Per second since each run's start: req/s, or p99 in ms; runs are overlaid on one time axis. */
    private static String overTime(List<RunData> runs, boolean p99) {
        int seconds = runs.stream().mapToInt(r -> r.overall().perSecond().length).max().orElse(0);
        StringBuilder x = new StringBuilder("[");
        for (int s = 0; s < seconds; s++) {
            x.append(s == 0 ? "" : ",").append(s);
        }
        x.append(']');
        List<String> ys = new ArrayList<>();
        for (RunData r : runs) {
            String[] v = new String[seconds];
            java.util.Arrays.fill(v, "null");
            for (Window w : r.overall().windows()) {
                v[w.second()] = p99 ? num(percentile(w, 99) / 1000.0) : Long.toString(w.samples());
            }
            ys.add("[" + String.join(",", v) + "]");
        }
        return "{\"x\":" + x + ",\"y\":[" + String.join(",", ys) + "]}";
    }

    static long percentile(Window w, double p) {
        long rank = Bootstrap.rank(p, w.samples());
        long running = 0;
        for (int i = 0; i < w.values().length; i++) {
            running += w.counts()[i];
            if (running >= rank) {
                return w.values()[i];
            }
        }
        return w.values().length == 0 ? 0 : w.values()[w.values().length - 1];
    }

    private static String names(List<String> names) {
        return names.stream().map(n -> "\"" + n.replace("\\", "\\\\").replace("\"", "\\\"")
                .replace("<", "\\u003c") + "\"").collect(Collectors.joining(",", "[", "]"));
    }

    private static String num(double v) {
        return String.format(Locale.ROOT, "%.4g", v);
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = HtmlReport.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IOException("missing resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static String script() throws IOException {
        return resource("compare.js");
    }
}
