/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.compare;

import io.stampede.blocking.BlockingTimes;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * `compare --plan`: the plan against every target in turn, round after round (A B A B ...), so that whatever the
 * machine does meanwhile falls on every configuration alike; after each round its own table and the median
 * ratio so far, at the end the comparison of all rounds.
 */
final class Rounds {

    record Input(Path plan, List<NamedTarget> targets, int rounds, Map<String, String> properties, String heap) {}

    private final Input in;
    private final Path dir;
    private final CompareSettings settings;
    private final PrintWriter stdout;
    private final PrintWriter stderr;
    private final Map<String, BlockingTimes> blocking;

    Rounds(Input in, Path dir, CompareSettings settings, PrintWriter stdout, PrintWriter stderr,
           Map<String, BlockingTimes> blocking) {
        this.blocking = blocking;
        this.in = in;
        this.dir = dir;
        this.settings = settings;
        this.stdout = stdout;
        this.stderr = stderr;
    }

    int run() throws IOException, CompareInputException {
        Map<String, List<RunData>> byTarget = new LinkedHashMap<>();
        in.targets().forEach(t -> byTarget.put(t.name(), new ArrayList<>()));
        Map<String, List<Double>> ratios = new LinkedHashMap<>();
        NamedTarget base = in.targets().get(0);
        for (int round = 1; round <= in.rounds(); round++) {
            for (NamedTarget t : in.targets()) {
                Path out = dir.resolve("round-" + round).resolve(t.name());
                stdout.printf(Locale.ROOT, "stampede compare: round %d of %d, %s (%s:%d) -> %s%n", round,
                        in.rounds(), t.name(), t.host(), t.port(), out);
                stdout.flush();
                List<String> args = new ArrayList<>(List.of(in.plan().toString(), "--host", t.host(), "--port",
                        Integer.toString(t.port()), "--out", out.toString(), "--no-dashboard", "--heap", in.heap()));
                in.properties().forEach((k, v) -> args.addAll(List.of("-J", k + "=" + v)));
                int exit = CompareCommand.runOnce(args, stdout, stderr);
                if (exit != 0) {
                    stderr.printf("stampede compare: the run of %s in round %d failed (exit %d): see above and %s%n",
                            t.name(), round, exit, out);
                    stderr.flush();
                    return exit;
                }
                byTarget.get(t.name()).add(RunFolder.read(out, t.name() + " round " + round, settings.warmupSeconds()));
            }
            stdout.println(roundLine(round, byTarget, ratios, base));
            stdout.flush();
        }
        List<Configuration> configs = new ArrayList<>();
        byTarget.forEach((name, runs) -> configs.add(new Configuration(name, runs)));
        stdout.println("stampede compare: per round, p50 and its ratio to " + base.name() + ":");
        for (int r = 0; r < in.rounds(); r++) {
            StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "  round %-3d", r + 1));
            for (Map.Entry<String, List<RunData>> e : byTarget.entrySet()) {
                s.append(String.format(Locale.ROOT, "  %s %s ms", e.getKey(), Verdict.ms(p50(e.getValue().get(r)))));
                if (!e.getKey().equals(base.name())) {
                    s.append(String.format(Locale.ROOT, " (x%.3f)", ratios.get(e.getKey()).get(r)));
                }
            }
            stdout.println(s);
        }
        CompareCommand.write(configs, settings, dir, stdout, blocking);
        return io.stampede.cli.ExitCodes.OK;
    }

    private String roundLine(int round, Map<String, List<RunData>> byTarget, Map<String, List<Double>> ratios,
                             NamedTarget base) {
        double baseP50 = p50(byTarget.get(base.name()).get(round - 1));
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "stampede compare: round %d: %s p50 %s ms",
                round, base.name(), Verdict.ms(baseP50)));
        for (Map.Entry<String, List<RunData>> e : byTarget.entrySet()) {
            if (e.getKey().equals(base.name())) {
                continue;
            }
            double p = p50(e.getValue().get(round - 1));
            List<Double> r = ratios.computeIfAbsent(e.getKey(), k -> new ArrayList<>());
            r.add(baseP50 == 0 ? Double.NaN : p / baseP50);
            s.append(String.format(Locale.ROOT, "; %s p50 %s ms (x%.3f, median ratio so far x%.3f)", e.getKey(),
                    Verdict.ms(p), r.get(r.size() - 1), median(r)));
        }
        return s.toString();
    }

    private static double p50(RunData r) {
        return r.reportedHistogram().getValueAtPercentile(50) / 1000.0;
    }

    static double median(List<Double> values) {
        double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        if (v.length == 0) {
            return Double.NaN;
        }
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }
}
