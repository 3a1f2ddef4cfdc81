/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.injectorhealth;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The injector's own time series, one row a second, as the Stampede agent inside JMeter wrote it to
 * {@code injector.csv}: the JMeter process's CPU and the whole machine's, in cores, against the cores the JVM
 * sees; GC pause time from the JVM's GC notifications; the longest stall of a thread that asks to wake every
 * millisecond (how late any thread of the JVM, event loops included, got the CPU); used heap; the longest lag of
 * the Stampede engine's own event loops (a task queued on each loop every 100 ms, timed until it ran), NaN in
 * seconds without an engine (stock samplers, files written before the column existed).
 */
public record InjectorSeries(List<Row> rows) {
    public static final String FILE = "injector.csv";

    public record Row(int second, double processCpu, double machineCpu, int cores, double gcPauseMs, int gcCount,
                      double stallMaxMs, double heapUsedMb, double loopLagMaxMs) {}

    public static Optional<InjectorSeries> readIfPresent(Path folder) throws IOException {
        return readFile(folder.resolve(FILE));
    }

    /** One series file (a remote engine's injector-HOST_PORT.csv); empty when absent or without a whole row. */
    public static Optional<InjectorSeries> readFile(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        List<Row> rows = new ArrayList<>();
        for (String line : Files.readAllLines(file)) {
            if (line.isBlank() || line.startsWith("second")) {
                continue;
            }
            String[] f = line.split(",");
            if (f.length < 8) {
                continue; // a row cut short when the process ended mid-write
            }
            try {
                rows.add(new Row(Integer.parseInt(f[0]), Double.parseDouble(f[1]), Double.parseDouble(f[2]),
                        Integer.parseInt(f[3]), Double.parseDouble(f[4]), Integer.parseInt(f[5]),
                        Double.parseDouble(f[6]), Double.parseDouble(f[7]),
                        f.length > 8 && !f[8].isBlank() ? Double.parseDouble(f[8]) : Double.NaN));
            } catch (NumberFormatException e) {
                // same: a partial row
            }
        }
        return rows.isEmpty() ? Optional.empty() : Optional.of(new InjectorSeries(List.copyOf(rows)));
    }

    public int cores() {
        return rows.stream().mapToInt(Row::cores).max().orElse(0);
    }

    public double meanProcessCpu() {
        return rows.stream().mapToDouble(Row::processCpu).average().orElse(0);
    }

    public double meanMachineCpu() {
        return rows.stream().mapToDouble(Row::machineCpu).average().orElse(0);
    }

    public double gcPauseMs() {
        return rows.stream().mapToDouble(Row::gcPauseMs).sum();
    }

    public double maxStallMs() {
        return rows.stream().mapToDouble(Row::stallMaxMs).max().orElse(0);
    }

    /** The 90th percentile of the per-second longest stalls: how late threads got the CPU most of the time. */
    public double p90StallMs() {
        return p90(rows.stream().mapToDouble(Row::stallMaxMs).sorted().toArray());
    }

    /** Whether the engine's event loops were probed at all (a Stampede sampler ran on them). */
    public boolean hasLoopLag() {
        return rows.stream().anyMatch(r -> !Double.isNaN(r.loopLagMaxMs()));
    }

    public double maxLoopLagMs() {
        return rows.stream().mapToDouble(Row::loopLagMaxMs).filter(v -> !Double.isNaN(v)).max().orElse(0);
    }

    /**
     * The longest loop lag after the engine's first probed second. That second loads the engine's classes and opens
     * the first connections on the loops (60-120 ms on this project's 2-core machines with nothing else running), a
     * one-off cost of starting, not a sign of an overloaded injector; it stays in {@link #maxLoopLagMs()}.
     */
    public double maxLoopLagAfterStartMs() {
        return rows.stream().mapToDouble(Row::loopLagMaxMs).filter(v -> !Double.isNaN(v)).skip(1).max().orElse(0);
    }

    /** The 90th percentile of the per-second longest loop lags, over the seconds an engine ran. */
    public double p90LoopLagMs() {
        return p90(rows.stream().mapToDouble(Row::loopLagMaxMs).filter(v -> !Double.isNaN(v)).sorted().toArray());
    }

    private static double p90(double[] sorted) {
        return sorted.length == 0 ? 0 : sorted[Math.min(sorted.length - 1, (int) Math.ceil(0.9 * sorted.length) - 1)];
    }
}
