/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.merge;

import io.stampede.results.LatencyHistogramFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The shares' latency.hlog files added up, tag by tag: the merged histogram holds every share's recorded values, so
 * its percentiles are those of all the samples, not an average of the shares' percentiles.
 */
final class HistogramMerge {

    private HistogramMerge() {}

    static Map<String, Histogram> of(List<ShareFolder> folders) throws IOException {
        Map<String, Histogram> sum = new LinkedHashMap<>();
        for (ShareFolder f : folders) {
            for (Map.Entry<String, Histogram> e : LatencyHistogramFile.read(f.histogram()).entrySet()) {
                sum.merge(e.getKey(), e.getValue(), (a, b) -> {
                    a.add(b);
                    return a;
                });
            }
        }
        return sum;
    }

    /** The merged histogram file, spanning from the first share's start to the last one's end. */
    static void write(Map<String, Histogram> sum, Path file) throws IOException {
        long start = Long.MAX_VALUE;
        long end = 0;
        for (Histogram h : sum.values()) {
            start = Math.min(start, h.getStartTimeStamp());
            end = Math.max(end, h.getEndTimeStamp());
        }
        LatencyHistogramFile.write(file, sum, start == Long.MAX_VALUE ? 0 : start, end);
    }
}
