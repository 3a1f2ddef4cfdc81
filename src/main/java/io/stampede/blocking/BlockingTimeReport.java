/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.blocking;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;

/** The blocking-time table, per realserver, with the clock warning. */
public final class BlockingTimeReport {

    private BlockingTimeReport() {}

    public static List<String> lines(BlockingTimes b) {
        List<String> out = new ArrayList<>();
        out.add("blocking time: nginx began reading the request minus HAProxy's X-Request-Start stamp, ms "
                + "(nginx's clock to 1 ms)");
        out.add(String.format(Locale.ROOT, "  %-24s %10s %8s %8s %8s %8s", "realserver", "requests", "p50", "p90",
                "p99", "max"));
        for (Map.Entry<String, BlockingTimes.Server> e : b.servers().entrySet()) {
            Histogram h = e.getValue().histogram();
            out.add(String.format(Locale.ROOT, "  %-24s %,10d %8.1f %8.1f %8.1f %8.1f", e.getKey(),
                    h.getTotalCount(), h.getValueAtPercentile(50) / 1000.0, h.getValueAtPercentile(90) / 1000.0,
                    h.getValueAtPercentile(99) / 1000.0, h.getMaxValue() / 1000.0));
        }
        for (Map.Entry<String, BlockingTimes.Server> e : b.servers().entrySet()) {
            BlockingTimes.Server s = e.getValue();
            if (s.negative() > 0) {
                out.add(String.format(Locale.ROOT, "  WARNING %s: %,d values (%.1f %%) are negative, down to %.1f ms:"
                        + " this realserver's clock is behind HAProxy's, so its blocking times are meaningless "
                        + "(synchronise the clocks: chrony or systemd-timesyncd on both)", e.getKey(), s.negative(),
                        100.0 * s.negative() / s.histogram().getTotalCount(), s.mostNegativeUs() / 1000.0));
            }
        }
        if (b.unstamped() > 0) {
            out.add(String.format(Locale.ROOT, "  note: %,d lines had no X-Request-Start stamp (requests that did not"
                    + " come through HAProxy, such as its health checks) and are left out", b.unstamped()));
        }
        return out;
    }
}
