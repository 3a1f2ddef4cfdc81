/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.doctor;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The doctor's findings: where it looked, the load it compared against, every check, and the verdict.
 *
 * @param context lines saying where the checks ran (OS, kernel, network namespace, target)
 * @param load what the checks were compared with
 * @param checks every check, in report order
 * @param facts the key figures for the one-line summary
 * @param portBudget the per-destination port budget, when the kernel's figures could be read
 */
public record DoctorReport(List<String> context, PlannedLoad load, List<Check> checks, List<String> facts,
        Optional<PortBudget> portBudget) {

    public DoctorReport {
        context = List.copyOf(context);
        checks = List.copyOf(checks);
        facts = List.copyOf(facts);
    }

    public Verdict verdict() {
        Verdict worst = Verdict.OK;
        for (Check c : checks) {
            worst = worst.worst(c.verdict());
        }
        return worst;
    }

    /** 0 ok, 1 warnings, 2 a check that will fail the test. */
    public int exitCode() {
        return verdict().exitCode();
    }

    /** "doctor: ok (ports 32768-60999, 28232 per destination; nofile 20000 for 200 connections)". */
    public String summary() {
        return "doctor: " + verdict().word() + " (" + String.join("; ", facts) + ")";
    }

    /** The checks that are not ok, one line each with their first remedy: what `stampede run` prints. */
    public List<String> problemLines() {
        List<String> lines = new ArrayList<>();
        for (Check c : checks) {
            if (c.verdict() != Verdict.OK) {
                lines.add(c.line() + (c.remedy().isEmpty() ? "" : " -> fix: " + c.remedy().get(0)));
            }
        }
        return lines;
    }

    /** The full human report. */
    public String text() {
        StringBuilder out = new StringBuilder();
        for (String line : context) {
            out.append(line).append('\n');
        }
        for (String line : load.basis()) {
            out.append("load: ").append(line).append('\n');
        }
        out.append('\n');
        for (Check c : checks) {
            out.append(String.format("%-5s %-28s %s%n", c.verdict().name(), c.title(), c.value()));
            if (!c.detail().isEmpty() && c.verdict() != Verdict.OK) {
                out.append("      why: ").append(c.detail()).append('\n');
            }
            for (String fix : c.remedy()) {
                out.append("      fix: ").append(fix).append('\n');
            }
        }
        out.append('\n').append(summary()).append('\n');
        return out.toString();
    }

    /** The same report as JSON. */
    public String json() {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("verdict", verdict().word());
        root.put("exit", exitCode());
        root.put("summary", summary());
        root.put("context", context);
        Map<String, Object> l = new LinkedHashMap<>();
        l.put("connections", load.connections().isPresent() ? load.connections().getAsLong() : null);
        l.put("new_connections_per_second",
                load.newConnectionsPerSecond().isPresent() ? load.newConnectionsPerSecond().getAsDouble() : null);
        l.put("total_new_connections",
                load.totalNewConnections().isPresent() ? load.totalNewConnections().getAsLong() : null);
        l.put("basis", load.basis());
        root.put("load", l);
        List<Object> list = new ArrayList<>();
        for (Check c : checks) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("id", c.id());
            m.put("title", c.title());
            m.put("value", c.value());
            m.put("verdict", c.verdict().word());
            m.put("detail", c.detail());
            m.put("remedy", c.remedy());
            list.add(m);
        }
        root.put("checks", list);
        return Json.write(root) + "\n";
    }
}
