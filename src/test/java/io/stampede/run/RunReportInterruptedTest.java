/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.run;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.results.RunStatistics;
import io.stampede.results.Sample;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An interrupted run's summary says so, on the console and in summary.txt, and names the samples the stop cut. */
class RunReportInterruptedTest {

    @Test
    void theSummarySaysTheRunWasCutShortAndWhichErrorsTheStopCaused(@TempDir Path dir) throws Exception {
        RunStatistics stats = new RunStatistics();
        for (int i = 0; i < 98; i++) {
            stats.add(new Sample(10_000 + i * 10L, 3, "GET", "200", "OK", true, 4));
        }
        stats.add(new Sample(11_000, 2, "GET", "Non HTTP response code: java.io.InterruptedIOException",
                "Non HTTP response message: Sample interrupted (test stopped)", false, 4));
        stats.add(new Sample(11_001, 2, "GET", "Non HTTP response code: java.io.InterruptedIOException",
                "Non HTTP response message: Sample interrupted (test stopped)", false, 4));
        StringWriter console = new StringWriter();
        RunFiles files = RunFiles.in(dir, false);
        RunReport report = new RunReport(new PrintWriter(console, true), files);
        report.interrupted(stats);
        report.write();
        String summary = Files.readString(files.summary());
        assertTrue(summary.contains("INTERRUPTED by Ctrl-C after 1.0 s: the plan did not finish; this summary covers"
                + " the 100 samples JMeter recorded before it stopped"), summary);
        assertTrue(summary.contains("of its errors, 2 are samples in flight when JMeter stopped"), summary);
        assertTrue(console.toString().contains("INTERRUPTED by Ctrl-C"), console.toString());
    }
}
