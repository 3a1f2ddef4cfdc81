/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.doctor;

import io.stampede.results.ErrorKind;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * After a run: from its errors by kind and the TIME_WAIT counts to the target, says whether the injector,
 * not the server, is the likely cause, and what to change. No lines when there is nothing to say.
 *
 * @param lines what `stampede run` prints under its error summary
 * @param injectorSuspected true when the lines blame the injector
 */
public record RunDiagnosis(List<String> lines, boolean injectorSuspected) {

    /** Growth in TIME_WAIT that counts as "piling up" when the port budget is unknown. */
    static final long SIGNIFICANT_GROWTH = 1000;

    private static final List<ErrorKind> CONNECTION_ERRORS =
            List.of(ErrorKind.CONNECTION_RESET, ErrorKind.CONNECTION_REFUSED, ErrorKind.PREMATURE_CLOSE);

    public RunDiagnosis {
        lines = List.copyOf(lines);
    }

    /**
     * @param errors failed samples by kind (kinds without errors may be absent)
     * @param samples all samples of the run
     * @param timeWait TIME_WAIT to the target before and at its peak, when it was sampled
     * @param budget the doctor's port budget for the target, when known
     */
    public static RunDiagnosis of(Map<ErrorKind, Long> errors, long samples, Optional<TimeWaitTrend> timeWait,
            Optional<PortBudget> budget) {
        Map<ErrorKind, Long> e = new EnumMap<>(ErrorKind.class);
        errors.forEach((k, v) -> {
            if (v != null && v > 0) {
                e.put(k, v);
            }
        });
        long outOfPorts = e.getOrDefault(ErrorKind.OUT_OF_LOCAL_PORTS, 0L);
        long connection = CONNECTION_ERRORS.stream().mapToLong(k -> e.getOrDefault(k, 0L)).sum();
        String trend = timeWait.map(t -> "TIME_WAIT to the target went from " + t.before() + " to " + t.peak()
                + budget.map(b -> " (of " + b.ports() + " local ports per destination)").orElse("")).orElse("");
        List<String> lines = new ArrayList<>();
        if (outOfPorts > 0) {
            lines.add("injector: " + share(outOfPorts, samples) + " failed with \"" + ErrorKind.OUT_OF_LOCAL_PORTS.label()
                    + "\": the injector ran out of local ports; the injector, not the server, is the cause"
                    + (trend.isEmpty() ? "" : "; " + trend));
            fixes(lines, budget);
            return new RunDiagnosis(lines, true);
        }
        if (connection == 0) {
            return new RunDiagnosis(List.of(), false);
        }
        String kinds = kinds(e);
        if (timeWait.isPresent() && piledUp(timeWait.get(), budget)) {
            lines.add("injector: " + share(connection, samples) + " failed with " + kinds + " while " + trend
                    + ": the injector's TIME_WAIT sockets are the likely cause, not the server");
            fixes(lines, budget);
            return new RunDiagnosis(lines, true);
        }
        if (timeWait.isPresent()) {
            lines.add("server or network: " + share(connection, samples) + " failed with " + kinds + "; " + trend
                    + ", so the injector's ports are not the cause");
        } else {
            lines.add(share(connection, samples) + " failed with " + kinds
                    + "; TIME_WAIT was not sampled, so injector and server cannot be told apart");
        }
        lines.add("check the server: listen queue overflows (nstat -az TcpExtListenOverflows), nginx worker_connections"
                + " and its open-file limit, conntrack (nf_conntrack_count vs nf_conntrack_max)");
        return new RunDiagnosis(lines, false);
    }

    private static boolean piledUp(TimeWaitTrend t, Optional<PortBudget> budget) {
        if (t.growth() == 0) {
            return false;
        }
        return budget.map(b -> t.peak() * 2 >= b.ports()).orElse(t.growth() >= SIGNIFICANT_GROWTH);
    }

    private static void fixes(List<String> lines, Optional<PortBudget> budget) {
        lines.add("fix: keep connections alive (Stampede samplers: stampede.keep_alive = true, the default; stock HTTP"
                + " Request: Use KeepAlive and 'Same user on each iteration'), so a connection serves many requests");
        lines.add("fix: or spread the load over more source addresses or injectors"
                + budget.map(b -> " (" + b.ports() + " ports each)").orElse("")
                + ", widen net.ipv4.ip_local_port_range (e.g. 1024 65000), or set net.ipv4.tcp_tw_reuse = 1;"
                + " stampede doctor --plan PLAN shows the figures");
    }

    private static String share(long n, long samples) {
        if (samples <= 0) {
            return n + " samples";
        }
        return String.format(Locale.ROOT, "%d of %d samples (%.2f%%)", n, samples, 100.0 * n / samples);
    }

    private static String kinds(Map<ErrorKind, Long> e) {
        List<String> parts = new ArrayList<>();
        for (ErrorKind k : CONNECTION_ERRORS) {
            if (e.containsKey(k)) {
                parts.add(k.label() + " (" + e.get(k) + ")");
            }
        }
        return String.join(", ", parts);
    }
}
