/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.names.PluginNames;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JtlTailTest {

    private static final String HEADER = "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,"
            + "success,failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect\n";

    @Test
    void readsRowsAsTheyAreCompletedIncludingQuotedCommasAndNewlines(@TempDir Path dir) throws Exception {
        Path jtl = dir.resolve("r.jtl");
        List<Sample> seen = new ArrayList<>();
        try (JtlTail tail = new JtlTail(jtl)) {
            assertEquals(0, tail.poll(seen::add), "no file yet is not an error");
            Files.writeString(jtl, HEADER + "1000,5,GET,200,OK,t 1-1,text,true,,100,50,1,3,http://x/,4,0,1\n"
                    + "1001,7,GET,Non HTTP response code: java.net.SocketException,\"Non HTTP response message: ");
            assertEquals(1, tail.poll(seen::add));
            Files.writeString(jtl, "Connection reset, by peer\nsecond line\",t 1-2,text,false,,0,50,1,2,http://x/,0,0,0\n"
                    + "1002,9,GET,500,Internal Server Error,t", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
            assertEquals(1, tail.poll(seen::add));
            Files.writeString(jtl, " 1-3,text,false,,10,50,1,2,http://x/,9,0,0\n", StandardOpenOption.APPEND);
            assertEquals(1, tail.poll(seen::add));
        }
        assertEquals(3, seen.size());
        Sample ok = seen.get(0);
        assertEquals(1000, ok.timeStamp());
        assertEquals(5, ok.elapsed());
        assertTrue(ok.success());
        assertEquals(3, ok.allThreads());
        Sample reset = seen.get(1);
        assertFalse(reset.success());
        assertEquals("Non HTTP response message: Connection reset, by peer\nsecond line", reset.responseMessage());
        assertEquals(ErrorKind.CONNECTION_RESET, ErrorKind.of(reset.responseCode(), reset.responseMessage()));
        assertEquals("500", seen.get(2).responseCode());
    }

    @Test
    void aFileCutInsideARowIsToldFromAWholeOne(@TempDir Path dir) throws Exception {
        Path jtl = dir.resolve("r.jtl");
        String row = "1000,5,GET,200,OK,t 1-1,text,true,,100,50,1,3,http://x/,4,0,1\n";
        Files.writeString(jtl, HEADER + row);
        try (JtlTail tail = new JtlTail(jtl)) {
            assertEquals(1, tail.poll(s -> { }));
            assertFalse(tail.endsMidRow(), "a JTL of whole rows");
            Files.writeString(jtl, row.substring(0, 20), StandardOpenOption.APPEND);
            assertEquals(0, tail.poll(s -> { }));
            assertTrue(tail.endsMidRow(), "the bytes after the last newline are a row cut short");
        }
        Files.writeString(jtl, HEADER + "1001,7,GET,500,\"a message with a newline\nand no end");
        try (JtlTail tail = new JtlTail(jtl)) {
            assertEquals(0, tail.poll(s -> { }));
            assertTrue(tail.endsMidRow(), "a quoted field that never closes");
        }
    }

    @Test
    void statisticsCountErrorsByKindAndPercentiles() {
        RunStatistics stats = new RunStatistics();
        for (int i = 1; i <= 100; i++) {
            stats.add(new Sample(10_000 + i * 10L, i, "GET", "200", "OK", true, 4));
        }
        stats.add(new Sample(12_000, 3, "GET", "Non HTTP response code: java.net.BindException",
                "Non HTTP response message: Cannot assign requested address", false, 4));
        stats.add(new Sample(12_000, 3, "GET", "503", "Service Unavailable", false, 4));
        assertEquals(102, stats.samples());
        assertEquals(2, stats.errors());
        assertEquals(1L, stats.errorsByKind().get(ErrorKind.OUT_OF_LOCAL_PORTS));
        assertEquals(1L, stats.errorsByKind().get(ErrorKind.HTTP_5XX));
        assertEquals(50, stats.percentileMs(50), 1);
        assertEquals(100, stats.maxMs());
        assertEquals(2_000 - 10 + 3, stats.spanMs(), "first start 10010, last end 12003");
        assertEquals(102 * 1000.0 / 1993, stats.requestsPerSecond(), 1e-9);
    }

    @Test
    void stockSamplesWithUnsetStampedeVariablesFallBackToTheMillisecondColumn(@TempDir Path dir) throws Exception {
        Path jtl = dir.resolve("stock.jtl");
        Files.writeString(jtl, "timeStamp,elapsed,label,responseCode,responseMessage,success,allThreads,"
                + "\"stampede_open_connections\",\"stampede_elapsed_us\",\"stampede_corrected_us\"\n"
                + "1000,7,GET,200,OK,true,1,null,null,null\n");
        RunStatistics stats = new RunStatistics();
        try (JtlTail tail = new JtlTail(jtl)) {
            tail.poll(stats::add);
        }
        assertEquals(7000, stats.elapsedMicros().getMaxValue(), 7000 * 0.001, "JMeter writes null for unset variables");
        assertEquals(0, stats.correctedMicros().getTotalCount());
    }

    @Test
    void theProtocolColumnIsCountedAndNullMeansNone(@TempDir Path dir) throws Exception {
        Path jtl = dir.resolve("h2.jtl");
        Files.writeString(jtl, "timeStamp,elapsed,label,responseCode,responseMessage,success,allThreads,"
                + "\"stampede_open_connections\",\"stampede_elapsed_us\",\"stampede_corrected_us\",\"stampede_protocol\"\n"
                + "1000,7,GET,200,OK,true,1,1,7000,7000,h2\n"
                + "1001,7,GET,200,OK,true,1,1,7000,7000,http/1.1 (ALPN fallback)\n"
                + "1002,7,GET,200,OK,true,1,null,null,null,null\n");
        RunStatistics stats = new RunStatistics();
        try (JtlTail tail = new JtlTail(jtl)) {
            tail.poll(stats::add);
        }
        assertEquals(java.util.Map.of("h2", 1L, PluginNames.ALPN_FALLBACK, 1L), stats.samplesByProtocol());
    }

    @Test
    void refusesAFileWithoutAHeader() {
        try {
            JtlHeader.parse("1000,5,GET,200");
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage().contains("timeStamp"));
            return;
        }
        throw new AssertionError("a header without timeStamp must be refused");
    }
}
