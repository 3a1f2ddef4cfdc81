/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.lab;

import io.stampede.blocking.AccessLogException;
import io.stampede.blocking.BlockingTimes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Check 7's arithmetic, shared by the namespace lab and the VM lab (whose guest sends the log lines over the
 * serial console): the p50 blocking time per realserver from the lines a batch of requests added to their
 * blocking-time logs, and the verdict on the shift a netem delay towards one realserver caused.
 */
public final class BlockingTimeShift {

    public static final String TITLE = "through HAProxy the blocking time is measured on every realserver; netem "
            + "delay 5ms towards one shows +5 ms there only";
    /** Requests per batch, through the VIP. */
    public static final int REQUESTS = 30;
    /** On one machine a request reaches nginx within HAProxy's connect and nginx's millisecond rounding. */
    static final double NEAR_ZERO_MS = 5.0;
    /**
     * The delayed realserver: +4..+7 ms for a 5 ms delay; every other one within ±2 ms. Each p50 is read at nginx's
     * millisecond resolution, so two of them differ by up to 1 ms with nothing changed; an emulated guest adds its
     * scheduling jitter on top. ±2 ms still tells a shift that is not the delay's from the delay's +5.
     */
    static final double SLOW_MIN_MS = 4;
    static final double SLOW_MAX_MS = 7;
    static final double OTHERS_MS = 2;

    private BlockingTimeShift() {
    }

    /**
     * p50 blocking time in ms per realserver from its new log lines (in the given order); appends one figure line
     * per realserver to detail. Null, with the reason in detail, when a realserver's lines hold no stamp.
     */
    public static Map<String, Double> p50s(Map<String, List<String>> newLines, String what, String traffic,
            StringBuilder detail) {
        Map<String, Double> p50 = new LinkedHashMap<>();
        detail.append(what).append(": ").append(traffic).append('\n');
        for (Map.Entry<String, List<String>> e : newLines.entrySet()) {
            String name = e.getKey();
            try {
                BlockingTimes.Server s = read(e.getValue());
                double v = s.histogram().getValueAtPercentile(50) / 1000.0;
                p50.put(name, v);
                detail.append(String.format(Locale.ROOT, "  %s: %d requests, blocking p50 %.1f ms, max %.1f ms%s%n",
                        name, s.histogram().getTotalCount(), v, s.histogram().getMaxValue() / 1000.0,
                        s.negative() > 0 ? ", " + s.negative() + " below -1 ms" : ""));
            } catch (IOException | AccessLogException ex) {
                detail.append("  ").append(name).append(": ").append(ex.getMessage()
                        .replaceFirst("^\\S*stampede-blocking-\\S*: ", "its new log lines: ")).append('\n');
                return null;
            }
        }
        return p50;
    }

    /** True when every realserver's p50 is near zero, as on one machine without a delay it must be. */
    public static boolean nearZero(Map<String, Double> before) {
        return before.values().stream().allMatch(p50 -> p50 <= NEAR_ZERO_MS);
    }

    /**
     * True when the slow realserver's p50 moved by +4..+7 ms and every other one by at most ±2 ms; appends each
     * realserver's change (p50 before and after too) to detail.
     */
    public static boolean onlyThereShifted(Map<String, Double> before, Map<String, Double> after, String slow,
            StringBuilder detail) {
        boolean ok = true;
        for (String name : before.keySet()) {
            Double later = after.get(name);
            if (later == null) {
                detail.append(name).append(": no figure with the delay  <- wrong\n");
                ok = false;
                continue;
            }
            double change = later - before.get(name);
            boolean right = name.equals(slow) ? change >= SLOW_MIN_MS && change <= SLOW_MAX_MS
                    : Math.abs(change) <= OTHERS_MS;
            ok &= right;
            detail.append(String.format(Locale.ROOT, "%s: p50 %.1f -> %.1f ms, %+.1f ms (%s)%s%n", name,
                    before.get(name), later, change, name.equals(slow) ? "delayed: +4..+7 expected"
                            : "not delayed: ±2 expected", right ? "" : "  <- wrong"));
        }
        return ok;
    }

    private static BlockingTimes.Server read(List<String> lines) throws IOException, AccessLogException {
        Path tmp = Files.createTempFile("stampede-blocking-", ".log");
        try {
            Files.write(tmp, lines);
            BlockingTimes b = BlockingTimes.read(List.of(tmp));
            return b.servers().values().iterator().next();
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
