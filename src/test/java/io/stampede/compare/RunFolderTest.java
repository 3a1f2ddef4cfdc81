/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.results.LatencyHistogramFile;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Result folders and HdrHistogram log files read, and merged, correctly. */
class RunFolderTest {

    @Test
    void aResultFolderIsReadIntoLabelsWindowsErrorsAndTheHlogHistogram(@TempDir Path tmp) throws Exception {
        RunData run = RunFolder.read(SyntheticRun.write(tmp.resolve("a"), 1, 0, 10, 200), "A");
        assertEquals("synthetic.jmx", run.plan());
        assertEquals("corrected", run.latencyKind());
        assertEquals(2000, run.overall().samples());
        assertEquals(List.of("GET /a", "POST /b"), List.copyOf(run.labels().keySet()));
        assertEquals(1000, run.labels().get("GET /a").samples());
        assertEquals(10, run.overall().windows().size());
        assertEquals(200, run.overall().windows().get(3).samples());
        assertEquals(Map.of("connection reset", 4L), run.errorsByKind());
        assertEquals(4, run.overall().errors());
        // The overall row comes from latency.hlog's corrected histogram, identical to the JTL's own figures.
        Histogram reported = run.reportedHistogram();
        assertEquals(run.hlog().get(LatencyHistogramFile.CORRECTED), reported);
        for (double p : new double[] {50, 90, 99, 99.9, 100}) {
            assertEquals(run.overall().histogram().getValueAtPercentile(p), reported.getValueAtPercentile(p), 0.0);
        }
        assertEquals(200, run.requestsPerSecond(), 1);
        assertEquals(9, run.overall().fullWindows().size(), "the last, partial second is not resampled");
    }

    @Test
    void warmUpSecondsAreLeftOut(@TempDir Path tmp) throws Exception {
        RunData run = RunFolder.read(SyntheticRun.write(tmp.resolve("a"), 1, 0, 10, 200), "A", 3);
        assertEquals(1400, run.overall().samples());
        assertEquals(run.overall().histogram(), run.reportedHistogram(), "not the hlog: it holds the warm-up too");
    }

    @Test
    void hlogIntervalsOfOneTagAreMergedAndTagsKeptApart(@TempDir Path tmp) throws Exception {
        Path file = tmp.resolve("latency.hlog");
        Histogram expectElapsed = new Histogram(3_600_000_000L, 3);
        Histogram expectCorrected = new Histogram(3_600_000_000L, 3);
        try (PrintStream out = new PrintStream(file.toFile(), "US-ASCII")) {
            HistogramLogWriter w = new HistogramLogWriter(out);
            w.outputLogFormatVersion();
            w.outputLegend();
            for (int interval = 0; interval < 5; interval++) {
                Histogram e = new Histogram(3_600_000_000L, 3);
                Histogram c = new Histogram(3_600_000_000L, 3);
                for (int i = 1; i <= 1000; i++) {
                    e.recordValue(i * (interval + 1));
                    c.recordValue(i * (interval + 1) + 7000);
                }
                e.setTag("elapsed");
                c.setTag("corrected");
                e.setStartTimeStamp(1000L * interval);
                e.setEndTimeStamp(1000L * interval + 1000);
                c.setStartTimeStamp(1000L * interval);
                c.setEndTimeStamp(1000L * interval + 1000);
                w.outputIntervalHistogram(e);
                w.outputIntervalHistogram(c);
                expectElapsed.add(e);
                expectCorrected.add(c);
            }
        }
        Map<String, Histogram> read = LatencyHistogramFile.read(file);
        assertEquals(5000, read.get("elapsed").getTotalCount());
        assertEquals(5000, read.get("corrected").getTotalCount());
        for (double p : new double[] {0, 50, 90, 99, 99.9, 100}) {
            assertEquals(expectElapsed.getValueAtPercentile(p), read.get("elapsed").getValueAtPercentile(p), 0.0);
            assertEquals(expectCorrected.getValueAtPercentile(p), read.get("corrected").getValueAtPercentile(p), 0.0);
        }
        assertEquals(5000, read.get("elapsed").getMaxValue(), 5);
    }

    @Test
    void roundsOfOneConfigurationMergeTheirHistograms(@TempDir Path tmp) throws Exception {
        RunData r1 = RunFolder.read(SyntheticRun.write(tmp.resolve("r1"), 1, 0, 5, 100), "A round 1");
        RunData r2 = RunFolder.read(SyntheticRun.write(tmp.resolve("r2"), 2, 3000, 5, 100), "A round 2");
        Configuration a = new Configuration("A", List.of(r1, r2));
        Histogram merged = a.mergedHistogram();
        assertEquals(1000, merged.getTotalCount());
        Histogram expect = r1.reportedHistogram().copy();
        expect.add(r2.reportedHistogram());
        assertEquals(expect, merged);
        // Half the samples are shifted by 3 ms: the median of the merge sits between the two runs' medians.
        assertTrue(merged.getValueAtPercentile(50) > r1.reportedHistogram().getValueAtPercentile(50));
        assertTrue(merged.getValueAtPercentile(50) < r2.reportedHistogram().getValueAtPercentile(50));
        assertEquals(2, a.windows(null).size());
    }
}
