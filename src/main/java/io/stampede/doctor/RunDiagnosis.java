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
 * After a run: from its errors by kind, the TIME_WAIT counts to the target and, when given, the server's error log,
 * says who closed the connections and what to change; then what HTTP/2 did (stream resets with their codes, GOAWAY,
 * protocol errors, ALPN fallbacks as a note). No lines when there is nothing to say.
 *
 * <p>The injector is named only on evidence: samples that failed because no local port was left, or connection
 * failures while TIME_WAIT to the target stood near the port budget. Resets and early closes with ports to spare
 * were the server's or the network's doing; a wrong "not the server" would send the user to the wrong machine.
 *
 * @param lines what `stampede run` prints under its error summary
 * @param injectorSuspected true when the lines blame the injector
 */
public record RunDiagnosis(List<String> lines, boolean injectorSuspected) {

    /**
     * Share of the port budget in TIME_WAIT from which connection failures are put down to the injector: beyond
     * it, connects start to find no free port (a port whose TIME_WAIT peer is the same destination cannot be taken).
     */
    static final double NEAR_BUDGET = 0.8;

    private static final List<ErrorKind> CONNECTION_ERRORS =
            List.of(ErrorKind.CONNECTION_RESET, ErrorKind.CONNECTION_REFUSED, ErrorKind.PREMATURE_CLOSE);

    static final String SERVER_CAUSES = "usual causes on the server's side: its keep-alive limits (nginx"
            + " keepalive_timeout and keepalive_requests, HAProxy timeout http-keep-alive), too few connections per"
            + " worker (nginx worker_connections; without reuseport on listen one worker can take most connections),"
            + " its open-file limit (worker_rlimit_nofile, LimitNOFILE), a balancer's or firewall's idle timeouts"
            + " (HAProxy timeout client/server, LVS/conntrack TCP timeouts), listen queue overflows (nstat -az"
            + " TcpExtListenOverflows)";

    public RunDiagnosis {
        lines = List.copyOf(lines);
    }

    /** Samples that failed on their connection (reset, refused, closed early): the ones TIME_WAIT is matched with. */
    public static long connectionFailures(Map<ErrorKind, Long> errors) {
        return CONNECTION_ERRORS.stream().mapToLong(k -> {
            Long n = errors.get(k);
            return n == null ? 0 : n;
        }).sum();
    }

    /** Without the server's log. */
    public static RunDiagnosis of(Map<ErrorKind, Long> errors, long samples, Optional<TimeWaitTrend> timeWait,
            Optional<PortBudget> budget) {
        return of(errors, samples, timeWait, budget, Optional.empty());
    }

    /** Without HTTP/2 findings. */
    public static RunDiagnosis of(Map<ErrorKind, Long> errors, long samples, Optional<TimeWaitTrend> timeWait,
            Optional<PortBudget> budget, Optional<ServerLogFindings> serverLog) {
        return of(errors, samples, timeWait, budget, serverLog, Http2Outcome.none());
    }

    /**
     * @param errors failed samples by kind (kinds without errors may be absent)
     * @param samples all samples of the run
     * @param timeWait TIME_WAIT to the target before, at its peak and at the failures, when it was sampled
     * @param budget the doctor's port budget for the target, when known
     * @param serverLog what the server's error log said during the run, when it was given
     * @param http2 stream resets, GOAWAYs, protocol errors and ALPN fallbacks: their lines follow the connections'
     */
    public static RunDiagnosis of(Map<ErrorKind, Long> errors, long samples, Optional<TimeWaitTrend> timeWait,
            Optional<PortBudget> budget, Optional<ServerLogFindings> serverLog, Http2Outcome http2) {
        RunDiagnosis connections = ofConnections(errors, samples, timeWait, budget, serverLog);
        List<String> lines = new ArrayList<>(connections.lines());
        lines.addAll(http2.lines(samples));
        lines.addAll(XmppOutcome.lines(errors, samples));
        return new RunDiagnosis(lines, connections.injectorSuspected());
    }

    private static RunDiagnosis ofConnections(Map<ErrorKind, Long> errors, long samples,
            Optional<TimeWaitTrend> timeWait, Optional<PortBudget> budget, Optional<ServerLogFindings> serverLog) {
        Map<ErrorKind, Long> e = new EnumMap<>(ErrorKind.class);
        errors.forEach((k, v) -> {
            if (v != null && v > 0) {
                e.put(k, v);
            }
        });
        long outOfPorts = e.getOrDefault(ErrorKind.OUT_OF_LOCAL_PORTS, 0L);
        long connection = connectionFailures(e);
        String trend = timeWait.map(t -> "TIME_WAIT to the target went from " + t.before() + " to " + t.peak()
                + budget.map(b -> " (of " + b.ports() + " local ports per destination)").orElse("")).orElse("");
        List<String> lines = new ArrayList<>();
        if (outOfPorts > 0) {
            lines.add("injector: " + share(outOfPorts, samples) + " failed with \"" + ErrorKind.OUT_OF_LOCAL_PORTS.label()
                    + "\": the injector ran out of local ports; the injector, not the server, is the cause"
                    + (trend.isEmpty() ? "" : "; " + trend));
            fixes(lines, budget);
            serverLogLines(lines, serverLog);
            return new RunDiagnosis(lines, true);
        }
        if (connection == 0) {
            if (serverLog.map(ServerLogFindings::any).orElse(false)) {
                lines.add("server: no sample failed on its connection, but the server's log reports closing or"
                        + " refusing connections (a closed idle keep-alive connection is reopened quietly):");
                serverLogLines(lines, serverLog);
            }
            return new RunDiagnosis(lines, false);
        }
        String kinds = kinds(e);
        Optional<Long> nearBudget = timeWait.flatMap(t -> budget.flatMap(b -> t.atFailures().isPresent()
                && t.atFailures().getAsLong() >= NEAR_BUDGET * b.ports()
                ? Optional.of(t.atFailures().getAsLong()) : Optional.empty()));
        if (nearBudget.isPresent()) {
            lines.add("injector: " + share(connection, samples) + " failed with " + kinds + " while " + nearBudget.get()
                    + " of " + budget.get().ports() + " local ports to the target were in TIME_WAIT: the injector's"
                    + " TIME_WAIT sockets are the likely cause, not the server");
            fixes(lines, budget);
            serverLogLines(lines, serverLog);
            return new RunDiagnosis(lines, true);
        }
        lines.add("server or network: " + share(connection, samples) + " failed with " + kinds + "; "
                + portsToSpare(timeWait, budget) + ", so the server or the network closed these connections");
        serverLogLines(lines, serverLog);
        lines.add(SERVER_CAUSES);
        return new RunDiagnosis(lines, false);
    }

    /** Why the injector's ports are not the cause, in figures. */
    private static String portsToSpare(Optional<TimeWaitTrend> timeWait, Optional<PortBudget> budget) {
        String none = "no sample ran out of local ports";
        if (timeWait.isEmpty()) {
            return none + " (TIME_WAIT was not sampled)";
        }
        TimeWaitTrend t = timeWait.get();
        String ports = budget.map(b -> " of " + b.ports() + " local ports").orElse("");
        String atFailures = t.atFailures().isPresent()
                ? "at most " + t.atFailures().getAsLong() + ports + " to the target were in TIME_WAIT when they failed"
                : "TIME_WAIT to the target was not sampled when they failed";
        return none + " and " + atFailures + " (TIME_WAIT went from " + t.before() + " to " + t.peak()
                + " over the run, which includes the injector closing its connections at the end)";
    }

    private static void serverLogLines(List<String> lines, Optional<ServerLogFindings> serverLog) {
        serverLog.ifPresent(log -> {
            if (!log.any()) {
                lines.add("server log " + log.file() + ": no line about closing or refusing connections during the run");
            }
            log.lines().forEach(l -> lines.add("server log " + log.file().getFileName() + ": " + l));
        });
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
