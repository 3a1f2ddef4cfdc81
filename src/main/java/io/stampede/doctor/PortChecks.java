/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.doctor;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Ephemeral ports, the new-connection rate they allow, TIME_WAIT reuse, timestamps and TIME_WAIT now. */
final class PortChecks {

    private static final int WIDE_LOW = 1024;
    private static final int WIDE_HIGH = 65000;

    private final Kernel kernel;
    private final Optional<Target> target;
    private final PlannedLoad load;

    PortChecks(Examination e) {
        this.kernel = e.kernel();
        this.target = e.target();
        this.load = e.load();
    }

    void addTo(Findings out) {
        Optional<PortBudget> read = PortBudget.read(kernel, target);
        if (read.isEmpty()) {
            out.add("ports", "ephemeral ports", "unreadable", Verdict.WARN,
                    "cannot read /proc/sys/net/ipv4/ip_local_port_range; is this Linux with /proc mounted?", List.of());
            return;
        }
        PortBudget budget = read.get();
        out.fact("ports " + budget.range() + ", " + budget.ports() + " per destination");
        ports(budget, out);
        rate(budget, out);
        reuse(budget, out);
        timestamps(budget, out);
        timeWait(budget, out);
    }

    private void ports(PortBudget b, Findings out) {
        String value = b.range() + " = " + b.ports() + " ports" + (b.reserved() > 0 ? " (" + b.reserved() + " reserved)" : ", none reserved");
        String detail = "every connection to one destination (address, port) needs its own local port from this range";
        if (b.ports() < 10000) {
            out.add("ports", "ephemeral ports", value, Verdict.WARN, detail + "; this range is narrow (the default"
                    + " 32768-60999 has 28232)", List.of(Findings.sysctlLine("net.ipv4.ip_local_port_range", WIDE_LOW + " " + WIDE_HIGH)));
        } else {
            out.add(Check.ok("ports", "ephemeral ports", value, detail));
        }
    }

    private void rate(PortBudget b, Findings out) {
        double sustainable = b.sustainablePerSecond();
        String why = b.reuseApplies()
                ? b.ports() + " ports / " + Numbers.rate(b.holdSeconds()) + " s: tcp_tw_reuse lets a TIME_WAIT port be reused after "
                        + b.reuseDelayMillis().orElse(1000) + " ms"
                : b.ports() + " ports / " + PortBudget.TIME_WAIT_SECONDS + " s TIME_WAIT";
        String value = "about " + Numbers.rate(sustainable) + " new connections/s per destination (" + why + ")";
        String detail = "when the injector closes first, each closed connection holds its local port in TIME_WAIT for "
                + PortBudget.TIME_WAIT_SECONDS + " s, fixed in the kernel; net.ipv4.tcp_fin_timeout ("
                + kernel.number("net.ipv4.tcp_fin_timeout").orElse(60) + ") does not shorten TIME_WAIT, it only limits FIN_WAIT_2";
        if (target.isEmpty() && b.reuseMode() == 2) {
            detail += "; no --target given, so a non-loopback target is assumed (tcp_tw_reuse=2 covers loopback only)";
        }
        if (!load.churnsConnections()) {
            String planned = load.newConnectionsPerSecond().isPresent()
                    ? "; the planned load keeps its connections alive" : "; give --rate or --plan to compare with a load";
            out.add(Check.ok("new-connection-rate", "new connections/s", value, detail + planned));
            return;
        }
        double planned = load.newConnectionsPerSecond().getAsDouble();
        String value2 = value + "; planned " + Numbers.rate(planned) + "/s";
        if (load.totalNewConnections().isPresent() && load.totalNewConnections().getAsLong() <= b.ports()) {
            out.add(Check.ok("new-connection-rate", "new connections/s", value2, detail + "; the whole run opens "
                    + load.totalNewConnections().getAsLong() + " new connections, no more than the " + b.ports() + " ports"));
            return;
        }
        out.fact("about " + Numbers.rate(sustainable) + " new connections/s per destination for " + Numbers.rate(planned) + "/s planned");
        if (planned <= 0.8 * sustainable) {
            out.add(Check.ok("new-connection-rate", "new connections/s", value2, detail));
            return;
        }
        Verdict verdict = planned > sustainable ? Verdict.FAIL : Verdict.WARN;
        String consequence = verdict == Verdict.FAIL
                ? "the planned rate uses up the ports within " + Numbers.rate(b.ports() / planned) + " s; then connects fail"
                        + " with 'Cannot assign requested address' (out of local ports)"
                : "the planned rate uses more than 80% of the ports";
        out.add("new-connection-rate", "new connections/s", value2, verdict, consequence + "; " + detail, remedies(b, planned));
    }

    private List<String> remedies(PortBudget b, double planned) {
        List<String> r = new ArrayList<>();
        r.add("plan: keep connections alive (Stampede samplers: stampede.keep_alive = true, the default; stock HTTP"
                + " Request: Use KeepAlive and 'Same user on each iteration'), so each thread reuses its connections");
        r.add("spread the load: each extra source address (or injector, or target port) adds " + b.ports()
                + " ports; " + (int) Math.ceil(planned / b.sustainablePerSecond()) + " source addresses would carry "
                + Numbers.rate(planned) + "/s");
        int wide = WIDE_HIGH - WIDE_LOW + 1;
        if (b.ports() < wide) {
            r.add(Findings.sysctlLine("net.ipv4.ip_local_port_range", WIDE_LOW + " " + WIDE_HIGH) + "; " + wide
                    + " ports = about " + Numbers.rate(wide / b.holdSeconds()) + "/s; list ports your services listen on in"
                    + " net.ipv4.ip_local_reserved_ports");
        }
        if (!b.reuseApplies()) {
            r.add(Findings.sysctlLine("net.ipv4.tcp_tw_reuse", 1) + " with net.ipv4.tcp_timestamps = 1; a TIME_WAIT port is"
                    + " reused after " + b.reuseDelayMillis().orElse(1000) + " ms: about "
                    + Numbers.rate(b.ports() * 1000.0 / b.reuseDelayMillis().orElse(1000)) + "/s");
        }
        return r;
    }

    private void reuse(PortBudget b, Findings out) {
        String meaning = switch (b.reuseMode()) {
            case 0 -> "off";
            case 1 -> "on for all outgoing connections";
            case 2 -> "loopback only (the default)";
            default -> "unknown mode";
        };
        String delay = b.reuseDelayMillis().isPresent()
                ? "tcp_tw_reuse_delay " + b.reuseDelayMillis().getAsLong() + " ms"
                : "no tcp_tw_reuse_delay in this kernel (reuse after about 1 s)";
        String value = b.reuseMode() + " = " + meaning + "; " + delay;
        String applies = target.map(t -> "; " + (b.reuseApplies() ? "applies" : "does not apply") + " to " + t.hostPort())
                .orElse("");
        if (b.reuseMode() != 0 && !b.timestamps()) {
            out.add("tw-reuse", "TIME_WAIT reuse", value, Verdict.WARN, "tcp_tw_reuse needs tcp_timestamps, which is off"
                    + applies, List.of(Findings.sysctlLine("net.ipv4.tcp_timestamps", 1)));
            return;
        }
        out.add(Check.ok("tw-reuse", "TIME_WAIT reuse", value, "lets a new outgoing connection take over a port in"
                + " TIME_WAIT once it is old enough" + applies));
    }

    private void timestamps(PortBudget b, Findings out) {
        long ts = kernel.number("net.ipv4.tcp_timestamps").orElse(-1);
        if (ts == 0) {
            out.add("timestamps", "TCP timestamps", "0 (off)", Verdict.WARN,
                    "without timestamps tcp_tw_reuse cannot work and PAWS does not protect reused ports",
                    List.of(Findings.sysctlLine("net.ipv4.tcp_timestamps", 1)));
        } else {
            out.add(Check.ok("timestamps", "TCP timestamps", ts < 0 ? "unreadable" : ts + " (on)",
                    "needed by tcp_tw_reuse"));
        }
    }

    private void timeWait(PortBudget b, Findings out) {
        TimeWaitCount now = new TcpTable(kernel.files()).timeWait(target);
        long buckets = kernel.number("net.ipv4.tcp_max_tw_buckets").orElse(Long.MAX_VALUE);
        String value = now.total() + " in total" + target.map(t -> ", " + now.toTarget() + " to " + t.hostPort()).orElse("");
        if (target.isPresent() && now.toTarget() >= b.ports()) {
            out.add("time-wait", "TIME_WAIT sockets now", value, Verdict.FAIL, "every local port for this destination is in"
                    + " TIME_WAIT: new connections to it fail until they expire (up to 60 s)",
                    List.of("wait " + PortBudget.TIME_WAIT_SECONDS + " s after the previous run before starting the next"));
        } else if (target.isPresent() && now.toTarget() * 10 >= b.ports()) {
            out.add("time-wait", "TIME_WAIT sockets now", value, Verdict.WARN, now.toTarget() + " of the " + b.ports()
                    + " ports for this destination are still in TIME_WAIT (a previous run?)",
                    List.of("wait " + PortBudget.TIME_WAIT_SECONDS + " s after the previous run before starting the next"));
        } else if (now.total() * 10 >= buckets * 8) {
            out.add("time-wait", "TIME_WAIT sockets now", value, Verdict.WARN, "close to net.ipv4.tcp_max_tw_buckets ("
                    + buckets + "); above it the kernel drops TIME_WAIT sockets early (\"time wait bucket table overflow\")",
                    List.of(Findings.sysctlLine("net.ipv4.tcp_max_tw_buckets", buckets * 2)));
        } else {
            out.add(Check.ok("time-wait", "TIME_WAIT sockets now", value, "from /proc/net/tcp and /proc/net/tcp6 (state 06)"));
        }
    }
}
