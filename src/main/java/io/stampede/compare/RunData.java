/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.compare;

import java.nio.file.Path;
import java.util.Map;
import io.stampede.injectorhealth.InjectorShare;
import org.HdrHistogram.Histogram;

/**
 * One result folder of `stampede run`, read for comparison.
 *
 * @param latencyKind "corrected" when every sample carries the latency from its intended send time, "elapsed"
 *                    when none does, "mixed" otherwise (corrected where recorded)
 * @param hlog the folder's latency.hlog by tag (empty when the folder has none)
 * @param injector schedule lag from the JTL and the injector's own time series (injector.csv) if written
 */
public record RunData(String name, Path folder, String plan, String latencyKind, Series overall,
                      Map<String, Series> labels, Map<String, Long> errorsByKind, Map<String, Histogram> hlog,
                      long firstStartMillis, long spanMs, InjectorShare injector) {

    /** The histogram the overall row reports: latency.hlog's (corrected where recorded), else the JTL's. */
    public Histogram reportedHistogram() {
        Histogram h = hlog.get(latencyKind.equals("corrected") ? "corrected" : "elapsed");
        return h != null && h.getTotalCount() == overall.samples() ? h : overall.histogram();
    }

    public double requestsPerSecond() {
        return spanMs <= 0 ? 0 : overall.samples() * 1000.0 / spanMs;
    }
}
