/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.bench;

import io.stampede.it.support.Jtl;
import io.stampede.it.support.JtlRow;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The figures of the XMPP plan's samples over the JTLs of all its engines, as one test: samples and errors by label,
 * errors by kind and message, messages sent and received, delivery latencies (all, and those of messages sent in the
 * steady window), the logins. Read as a stream: a run of 100,000 users writes millions of samples, and only the
 * latencies and the successful logins are kept.
 */
final class XmppTally {
    /** One engine's counts, to tell a lagging engine from the others. */
    record EngineCounts(long logins, long errors, long sent, long received) {
    }

    private final Map<String, long[]> byLabel = new LinkedHashMap<>();
    private final Map<String, Long> byKind = new LinkedHashMap<>();
    private final Map<String, Long> byMessage = new LinkedHashMap<>();
    private final List<Long> delivery = new ArrayList<>();
    private final List<Long> steadyDelivery = new ArrayList<>();
    private final List<Long> roster = new ArrayList<>();
    private final List<JtlRow> logins = new ArrayList<>();
    private final List<EngineCounts> engines = new ArrayList<>();
    private final long windowFrom;
    private final long windowTo;
    private long errors;
    private long sent;
    private long received;
    private long windowMessages;

    private XmppTally(long windowFrom, long windowTo) {
        this.windowFrom = windowFrom;
        this.windowTo = windowTo;
    }

    /** Reads the JTLs, one per engine, in engine order; the window is [from, to) in epoch milliseconds. */
    static XmppTally of(List<Path> jtls, long windowFrom, long windowTo) {
        XmppTally t = new XmppTally(windowFrom, windowTo);
        for (Path jtl : jtls) {
            long[] before = {t.logins.size(), t.errors, t.sent, t.received};
            Jtl.scan(jtl, t::add);
            t.engines.add(new EngineCounts(t.logins.size() - before[0], t.errors - before[1], t.sent - before[2],
                    t.received - before[3]));
        }
        Collections.sort(t.delivery);
        Collections.sort(t.steadyDelivery);
        Collections.sort(t.roster);
        return t;
    }

    private void add(JtlRow row) {
        long[] c = byLabel.computeIfAbsent(row.label(), k -> new long[2]);
        c[0]++;
        boolean inWindow = row.timeStamp() >= windowFrom && row.timeStamp() < windowTo;
        if (!row.success()) {
            c[1]++;
            errors++;
            String code = row.responseCode();
            byKind.merge(code.substring(code.lastIndexOf('.') + 1), 1L, Long::sum);
            byMessage.merge(row.label() + ": " + row.responseMessage(), 1L, Long::sum);
        }
        switch (row.label()) {
            case "message" -> {
                sent++;
                windowMessages += inWindow ? 1 : 0;
            }
            case "message received" -> {
                if (row.success()) {
                    received++;
                    delivery.add(row.elapsed());
                    if (inWindow) {
                        steadyDelivery.add(row.elapsed());
                    }
                }
            }
            case "login" -> {
                if (row.success()) {
                    logins.add(row);
                }
            }
            case "roster" -> roster.add(row.elapsed());
            default -> {
                // presence, logout: counted by label above
            }
        }
    }

    long errors() {
        return errors;
    }

    long sent() {
        return sent;
    }

    long received() {
        return received;
    }

    long logins() {
        return logins.size();
    }

    /** Messages whose send began in the window. */
    long windowMessages() {
        return windowMessages;
    }

    List<EngineCounts> engines() {
        return List.copyOf(engines);
    }

    /** Samples and errors by label, errors by kind and by message, messages sent and received, delivery. */
    void print() {
        byLabel.forEach((label, c) -> System.out.printf("  %-20s %9d samples %7d errors%n", label, c[0], c[1]));
        System.out.printf("  errors by kind: %s%n", byKind.isEmpty() ? "none" : byKind);
        System.out.printf("  messages sent %d, received %d: %s%n", sent, received, sent == received
                ? "every message delivered" : (sent - received) + " not delivered");
        System.out.printf(Locale.ROOT, "  delivery (sender's clock to arrival): p50 %d ms, p99 %d ms, max %d ms; of the "
                + "%d messages sent in the steady window (every user online): p50 %d ms, p99 %d ms, max %d ms%n",
                pct(delivery, 0.50), pct(delivery, 0.99), pct(delivery, 1.0), steadyDelivery.size(),
                pct(steadyDelivery, 0.50), pct(steadyDelivery, 0.99), pct(steadyDelivery, 1.0));
        byMessage.entrySet().stream().limit(10).forEach(e -> System.out.printf("  failed %6d  %s%n", e.getValue(),
                e.getKey()));
    }

    /**
     * The login rate reached against the one asked: logins over the time from the first login's start to the
     * last's, all engines together; how long a login and the first turn's roster took, and the most logins that were
     * in flight at once (a thread runs up to its concurrent logins at once).
     */
    void printLoginRate(int asked) {
        if (logins.size() < 2) {
            return;
        }
        long first = logins.stream().mapToLong(JtlRow::timeStamp).min().orElse(0);
        long last = logins.stream().mapToLong(JtlRow::timeStamp).max().orElse(0);
        List<Long> loginTimes = logins.stream().map(JtlRow::elapsed).sorted().toList();
        System.out.printf(Locale.ROOT, "  login rate %.1f/s (asked %d/s): %d logins in %.1f s; login p50 %d ms, p99 %d "
                + "ms; roster p50 %d ms, p99 %d ms; at most %d logins in flight at once%n",
                (logins.size() - 1) * 1000.0 / Math.max(1, last - first), asked, logins.size(),
                (last - first) / 1000.0, pct(loginTimes, 0.5), pct(loginTimes, 0.99), pct(roster, 0.5),
                pct(roster, 0.99), Jtl.mostAtOnce(logins));
    }

    static long pct(List<Long> sorted, double p) {
        if (sorted.isEmpty()) {
            return -1;
        }
        int rank = (int) Math.ceil(p * sorted.size()) - 1;
        return sorted.get(Math.min(sorted.size() - 1, Math.max(0, rank)));
    }
}
