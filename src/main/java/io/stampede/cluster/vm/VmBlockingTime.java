/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.vm;

import io.stampede.cluster.lab.BlockingTimeShift;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Lab check 7 on Debian's kernel, where sch_netem exists: the guest sends a batch of requests through the
 * HAProxy VIP, then another with `tc qdisc add ... netem delay 5ms` on the bridge port towards one realserver,
 * and reports every realserver's new blocking-time log lines on the console ("BLOG PHASE HOST LINE"), what the
 * client got ("TRAFFIC PHASE ...") and what tc said ("NETEM HOST ok|FAIL ..."). This class collects those
 * reports and judges them with the namespace lab's own arithmetic ({@link BlockingTimeShift}).
 */
final class VmBlockingTime {

    /**
     * Requests per batch: three times the namespace lab's, because an emulated CPU that the host takes away for a
     * moment between HAProxy's stamp and nginx's read adds that moment to one blocking time; the p50 of 30 per
     * realserver stays put where 10 did not on a loaded machine.
     */
    static final int REQUESTS = 3 * BlockingTimeShift.REQUESTS;
    static final String BEFORE = "before";
    static final String AFTER = "after";

    /** The verdict: PASS or FAIL, and what was measured. */
    record Verdict(boolean pass, String detail) {
    }

    private final List<String> realservers;
    private final String slow;
    private final Map<String, Map<String, List<String>>> lines = new LinkedHashMap<>();
    private final Map<String, String> traffic = new LinkedHashMap<>();
    private String netem;

    /** realservers: those that take traffic (weight > 0), in order; slow: the one whose link gets the delay. */
    VmBlockingTime(List<String> realservers, String slow) {
        this.realservers = List.copyOf(realservers);
        this.slow = slow;
        for (String phase : List.of(BEFORE, AFTER)) {
            Map<String, List<String>> perServer = new LinkedHashMap<>();
            realservers.forEach(r -> perServer.put(r, new ArrayList<>()));
            lines.put(phase, perServer);
        }
    }

    /** Takes the guest's report if it is one of check 7's; true when taken (it is data, not for the screen). */
    boolean accept(String report) {
        String[] w = report.split(" ", 4);
        if (w[0].equals("BLOG") && w.length == 4 && lines.containsKey(w[1]) && lines.get(w[1]).containsKey(w[2])) {
            lines.get(w[1]).get(w[2]).add(w[3]);
            return true;
        }
        if (w[0].equals("TRAFFIC") && w.length >= 3 && lines.containsKey(w[1])) {
            traffic.put(w[1], report.substring(("TRAFFIC " + w[1] + " ").length()));
            return true;
        }
        if (w[0].equals("NETEM")) {
            netem = report.substring("NETEM ".length());
            return true;
        }
        return false;
    }

    /** True once the guest reported its first batch: without it the guest's own last lines tell more. */
    boolean measured() {
        return traffic.containsKey(BEFORE);
    }

    /** Check 7's verdict from what the guest reported; FAIL when a phase is missing or netem could not be set. */
    Verdict verdict() {
        StringBuilder detail = new StringBuilder();
        if (!traffic.containsKey(BEFORE)) {
            return new Verdict(false, "the guest reported no measurement");
        }
        Map<String, Double> before = BlockingTimeShift.p50s(lines.get(BEFORE), "without delay", traffic.get(BEFORE),
                detail);
        if (before == null) {
            return new Verdict(false, detail.toString().strip());
        }
        boolean nearZero = BlockingTimeShift.nearZero(before);
        if (netem == null || !netem.startsWith(slow + " ok")) {
            detail.append("netem delay towards ").append(slow).append(" NOT set on Debian's kernel: ")
                    .append(netem == null ? "the guest did not get that far" : netem);
            return new Verdict(false, detail.toString().strip());
        }
        detail.append("netem: ").append(netem.substring((slow + " ok").length()).replaceFirst("^: ", ""))
                .append('\n');
        if (!traffic.containsKey(AFTER)) {
            detail.append("the guest reported no measurement with the delay");
            return new Verdict(false, detail.toString().strip());
        }
        Map<String, Double> after = BlockingTimeShift.p50s(lines.get(AFTER), "with netem delay 5ms towards " + slow,
                traffic.get(AFTER), detail);
        if (after == null) {
            return new Verdict(false, detail.toString().strip());
        }
        boolean onlyThere = BlockingTimeShift.onlyThereShifted(before, after, slow, detail);
        if (!nearZero) {
            detail.append("without delay a p50 exceeds 5 ms: more than one machine's own delay");
        }
        return new Verdict(nearZero && onlyThere, detail.toString().strip());
    }

    List<String> realservers() {
        return realservers;
    }
}
