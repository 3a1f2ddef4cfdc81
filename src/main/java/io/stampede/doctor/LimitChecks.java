/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.doctor;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/** File descriptors (process and system), listen backlog for a local target, and conntrack. */
final class LimitChecks {

    /** Descriptors a JMeter JVM uses besides its connections: jars, logs, the JTL, epoll, pipes. */
    static final int OWN_FILES = 200;

    private final Kernel kernel;
    private final Optional<Target> target;
    private final PlannedLoad load;

    LimitChecks(Examination e) {
        this.kernel = e.kernel();
        this.target = e.target();
        this.load = e.load();
    }

    void addTo(Findings out) {
        nofile(out);
        fileMax(out);
        if (target.isPresent() && target.get().local()) {
            backlog(out);
        }
        conntrack(out);
    }

    /** Soft and hard "Max open files" of this process, from /proc/self/limits; -1 = unlimited. */
    static Optional<long[]> openFiles(SystemFiles files) {
        for (String line : files.read("/proc/self/limits").orElse("").split("\n")) {
            if (line.startsWith("Max open files")) {
                String[] f = line.substring("Max open files".length()).trim().split("\\s+");
                if (f.length >= 2) {
                    return Optional.of(new long[] {limit(f[0]), limit(f[1])});
                }
            }
        }
        return Optional.empty();
    }

    private static long limit(String s) {
        return s.equals("unlimited") ? Long.MAX_VALUE : Long.parseLong(s);
    }

    private long needed() {
        return load.connections().orElse(0) + OWN_FILES;
    }

    private void nofile(Findings out) {
        Optional<long[]> limits = openFiles(kernel.files());
        long nrOpen = kernel.number("fs.nr_open").orElse(1048576);
        if (limits.isEmpty()) {
            out.add("nofile", "open files (nofile)", "unreadable", Verdict.WARN, "cannot read /proc/self/limits", List.of());
            return;
        }
        long soft = limits.get()[0];
        long hard = limits.get()[1];
        String value = "soft " + show(soft) + ", hard " + show(hard) + "; fs.nr_open " + nrOpen;
        String detail = "a JVM raises its soft limit to the hard one at start (-XX:+MaxFDLimit), so JMeter gets the hard"
                + " limit of the shell or service that starts it";
        if (load.connections().isEmpty()) {
            out.fact("nofile " + show(hard));
            out.add(Check.ok("nofile", "open files (nofile)", value, detail + "; give --connections or --plan to compare"));
            return;
        }
        long connections = load.connections().getAsLong();
        long needed = needed();
        out.fact("nofile " + show(hard) + " for " + connections + " connections");
        String value2 = value + "; needed " + needed + " (" + connections + " connections + " + OWN_FILES + ")";
        if (needed <= hard * 0.8) {
            out.add(Check.ok("nofile", "open files (nofile)", value2, detail));
            return;
        }
        long target = roundUp(needed * 5 / 4);
        List<String> remedy = new ArrayList<>();
        remedy.add("systemd service: LimitNOFILE=" + target);
        remedy.add("shell: ulimit -n " + target + " (raising the hard limit needs root or /etc/security/limits.conf:"
                + " '* - nofile " + target + "')");
        if (target > nrOpen) {
            remedy.add(Findings.sysctlLine("fs.nr_open", target) + "; no process limit can exceed it");
        }
        Verdict verdict = needed > hard ? Verdict.FAIL : Verdict.WARN;
        out.add("nofile", "open files (nofile)", value2, verdict, (verdict == Verdict.FAIL
                ? "the planned connections do not fit: connects fail with 'Too many open files'"
                : "the planned connections use more than 80% of the limit") + "; " + detail, remedy);
    }

    private void fileMax(Findings out) {
        OptionalLong max = kernel.number("fs.file-max");
        if (max.isEmpty()) {
            return;
        }
        long used = kernel.number("fs.file-nr").orElse(0);
        String value = "fs.file-max " + max.getAsLong() + ", " + used + " in use (fs.file-nr)";
        long after = used + (load.connections().isPresent() ? needed() : 0);
        if (after > max.getAsLong()) {
            out.add("file-max", "open files (system)", value, Verdict.FAIL, "the planned connections exceed the system's"
                    + " open file table", List.of(Findings.sysctlLine("fs.file-max", roundUp(after * 2))));
        } else if (after * 10 > max.getAsLong() * 8) {
            out.add("file-max", "open files (system)", value, Verdict.WARN, "the system's open file table would be more"
                    + " than 80% full", List.of(Findings.sysctlLine("fs.file-max", roundUp(after * 2))));
        } else {
            out.add(Check.ok("file-max", "open files (system)", value, "system-wide limit on open files"));
        }
    }

    private void backlog(Findings out) {
        long somaxconn = kernel.number("net.core.somaxconn").orElse(4096);
        long syn = kernel.number("net.ipv4.tcp_max_syn_backlog").orElse(-1);
        String value = "net.core.somaxconn " + somaxconn + ", net.ipv4.tcp_max_syn_backlog " + syn;
        String detail = "the target listens in this namespace: a burst of connects beyond its accept queue"
                + " (min of the server's backlog and somaxconn; nginx's default backlog is 511) is dropped or reset";
        long burst = load.connections().orElse(0);
        if (burst > somaxconn) {
            long target = roundUp(burst);
            out.add("backlog", "listen backlog (local target)", value, Verdict.WARN, burst
                    + " connections may connect at once; " + detail,
                    List.of(Findings.sysctlLine("net.core.somaxconn", target),
                            Findings.sysctlLine("net.ipv4.tcp_max_syn_backlog", target),
                            "nginx: listen " + target().port() + " backlog=" + target + ";"));
        } else {
            out.add(Check.ok("backlog", "listen backlog (local target)", value, detail));
        }
    }

    private Target target() {
        return target.orElseThrow();
    }

    private void conntrack(Findings out) {
        OptionalLong max = kernel.number("net.netfilter.nf_conntrack_max");
        OptionalLong count = kernel.number("net.netfilter.nf_conntrack_count");
        if (max.isEmpty() || count.isEmpty()) {
            out.add(Check.ok("conntrack", "conntrack table", "not loaded", "no connection tracking in this namespace"));
            return;
        }
        long timeWait = kernel.number("net.netfilter.nf_conntrack_tcp_timeout_time_wait").orElse(120);
        double rate = load.newConnectionsPerSecond().orElse(0);
        long projected = count.getAsLong() + load.connections().orElse(0) + Math.round(rate * timeWait);
        String value = count.getAsLong() + " of " + max.getAsLong() + " entries";
        String detail = "each tracked connection stays in the table " + timeWait + " s after it closes; when the table is"
                + " full new connections are dropped (\"nf_conntrack: table full\"), seen as connect timeouts";
        if (projected > max.getAsLong() || projected * 10 > max.getAsLong() * 8) {
            Verdict verdict = projected > max.getAsLong() ? Verdict.FAIL : Verdict.WARN;
            out.add("conntrack", "conntrack table", value + "; about " + projected + " with the planned load", verdict,
                    detail + " (if netfilter tracks this traffic)",
                    List.of(Findings.sysctlLine("net.netfilter.nf_conntrack_max", roundUp(projected * 2))));
        } else {
            out.add(Check.ok("conntrack", "conntrack table", value, detail));
        }
    }

    /** A round figure at or above n: the next multiple of 1024. */
    static long roundUp(long n) {
        return (n + 1023) / 1024 * 1024;
    }

    private static String show(long limit) {
        return limit == Long.MAX_VALUE ? "unlimited" : Long.toString(limit);
    }
}
