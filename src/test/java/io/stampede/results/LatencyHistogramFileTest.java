/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LatencyHistogramFileTest {

    private static final String HEADER = "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,"
            + "success,bytes,allThreads,\"stampede_open_connections\",\"stampede_elapsed_us\","
            + "\"stampede_corrected_us\"\n";

    @Test
    void stampedeColumnsGiveMicrosecondsOpenConnectionsAndCorrectedLatency(@TempDir Path dir) throws Exception {
        Path jtl = dir.resolve("r.jtl");
        StringBuilder rows = new StringBuilder(HEADER);
        for (int i = 1; i <= 10_000; i++) {
            // elapsed 0 ms in JMeter's column, yet 1..10000 us in ours; corrected adds 5 ms
            rows.append(1000 + i).append(",0,GET,200,OK,t,text,true,10,2,").append(i % 7 == 0 ? 500 : 499)
                    .append(',').append(i).append(',').append(i + 5000).append('\n');
        }
        Files.writeString(jtl, rows);
        RunStatistics stats = new RunStatistics();
        try (JtlTail tail = new JtlTail(jtl)) {
            assertEquals(10_000, tail.poll(stats::add));
        }
        assertEquals(499, stats.openConnections(), "the latest row's value");
        Path hlog = dir.resolve("latency.hlog");
        LatencyHistogramFile.write(hlog, stats, stats.firstStartMillis(), stats.firstStartMillis() + stats.spanMs());
        Map<String, Histogram> read = LatencyHistogramFile.read(hlog);
        assertEquals(List.of("elapsed", "corrected"), List.copyOf(read.keySet()));
        Histogram elapsed = read.get("elapsed");
        assertEquals(10_000, elapsed.getTotalCount());
        assertEquals(5000, elapsed.getValueAtPercentile(50), 5);
        assertEquals(9990, elapsed.getValueAtPercentile(99.9), 10);
        assertEquals(10_000, elapsed.getValueAtPercentile(99.99), 10);
        assertEquals(10_000, read.get("corrected").getValueAtPercentile(50), 10);
        List<String> lines = LatencyHistogramFile.summaryLines(read);
        assertTrue(lines.get(0).contains("p50 5.00") && lines.get(0).contains("p99.99 "), lines.get(0));
        assertTrue(lines.get(1).trim().startsWith("corrected  p50 10.0"), lines.get(1));
        assertTrue(Files.readString(hlog).contains("Tag=corrected"));
    }

    @Test
    void stockSamplersFallBackToMillisecondsAndHaveNoCorrectedLatency(@TempDir Path dir) throws Exception {
        RunStatistics stats = new RunStatistics();
        stats.add(new Sample(1000, 3, "GET", "200", "OK", true, 1));
        assertEquals(-1, stats.openConnections());
        Path hlog = dir.resolve("latency.hlog");
        LatencyHistogramFile.write(hlog, stats, 1000, 1003);
        Map<String, Histogram> read = LatencyHistogramFile.read(hlog);
        assertFalse(read.containsKey("corrected"));
        assertEquals(3000, read.get("elapsed").getMaxValue(), 3);
    }

    @Test
    void sampleVariablesKeepTheUsersOwnAndAddStampedes() {
        assertEquals("A,B,stampede_open_connections,stampede_elapsed_us,stampede_corrected_us,stampede_protocol",
                StampedeColumns.sampleVariables("A, B"));
        assertEquals("stampede_open_connections,stampede_elapsed_us,stampede_corrected_us,stampede_protocol",
                StampedeColumns.sampleVariables(null));
    }
}
