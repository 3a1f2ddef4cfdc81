/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.bench;

import java.io.PrintStream;
import java.util.List;
import java.util.Optional;

/** The benchmark's table and the ratios the issue asks for (ours against stock JMeter and against wrk). */
final class BenchReport {

    private final List<Measurement> rows;

    BenchReport(List<Measurement> rows) {
        this.rows = List.copyOf(rows);
    }

    void print(PrintStream out) {
        out.printf("%-22s %12s %8s %14s %8s %9s %11s %11s %11s%n", "tool", "req/s", "cores", "CPU us/req", "errors",
                "requests", "nginx cores", "other cores", "steal cores");
        for (Measurement m : rows) {
            out.printf("%-22s %12.0f %8.2f %14.1f %8d %9d %11.2f %11.2f %11.2f%n", m.tool(), m.requestsPerSecond(),
                    m.cores(), m.cpuMicrosPerRequest(), m.errors(), m.requests(), m.nginxCores(), m.otherCores(),
                    m.stealCores());
        }
        out.println();
        Optional<Measurement> stock = find(EngineBenchmark.STOCK);
        Optional<Measurement> wrk = find(EngineBenchmark.WRK);
        for (String ours : List.of(EngineBenchmark.RAW, EngineBenchmark.RAW_MULTI, EngineBenchmark.HTTP)) {
            find(ours).ifPresent(m -> {
                stock.ifPresent(s -> ratio(out, m, s));
                wrk.ifPresent(w -> ratio(out, m, w));
            });
        }
        stock.ifPresent(s -> wrk.ifPresent(w -> ratio(out, s, w)));
    }

    private static void ratio(PrintStream out, Measurement a, Measurement b) {
        out.printf("%-22s / %-22s  req/s x%.2f   CPU per request x%.2f%n", a.tool(), b.tool(),
                a.requestsPerSecond() / b.requestsPerSecond(), a.cpuMicrosPerRequest() / b.cpuMicrosPerRequest());
    }

    private Optional<Measurement> find(String tool) {
        return rows.stream().filter(m -> m.tool().equals(tool)).findFirst();
    }
}
