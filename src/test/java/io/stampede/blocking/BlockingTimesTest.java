/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.blocking;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.cli.StampedeCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Blocking times from access lines in the rendered `blocking` format, with known answers. */
public class BlockingTimesTest {

    /** A line as nginx writes it: the request was stamped at {@code stampUs}, read from stamp + blocking. */
    public static String line(String server, long stampUs, long blockingUs, long requestMs) {
        long receivedMs = Math.floorDiv(stampUs + blockingUs, 1000);
        long logMs = receivedMs + requestMs;
        return String.format(Locale.ROOT, "msec=%d.%03d rt=%d.%03d xrs=\"t=%d\" server=%s", logMs / 1000,
                logMs % 1000, requestMs / 1000, requestMs % 1000, stampUs, server);
    }

    @Test
    void perRealserverPercentilesAndAFiveMillisecondDelayShowsOnlyWhereItIs(@TempDir Path dir) throws Exception {
        StringBuilder a = new StringBuilder();
        StringBuilder b = new StringBuilder();
        long t = 1_795_000_000_000_000L;
        for (int i = 0; i < 1000; i++) {
            a.append(line("10.0.0.11:80", t + i * 997L, 300 + i % 200, 1)).append('\n');
            b.append(line("10.0.0.12:80", t + i * 997L, 5300 + i % 200, 1)).append('\n');
        }
        a.append("msec=1795000000.100 rt=0.000 xrs=\"-\" server=10.0.0.11:80\n"); // a health check: no stamp
        Path la = Files.writeString(dir.resolve("web1.log"), a);
        Path lb = Files.writeString(dir.resolve("web2.log"), b);
        BlockingTimes times = BlockingTimes.read(List.of(la, lb));
        assertEquals(2000, times.stamped());
        assertEquals(1, times.unstamped());
        double p50a = times.servers().get("10.0.0.11:80").histogram().getValueAtPercentile(50) / 1000.0;
        double p50b = times.servers().get("10.0.0.12:80").histogram().getValueAtPercentile(50) / 1000.0;
        assertTrue(p50a >= 0 && p50a <= 1.5, "no delay: " + p50a);
        assertEquals(5, p50b - p50a, 1.0, "+5 ms on web2 only");
        List<String> report = BlockingTimeReport.lines(times);
        assertTrue(report.stream().anyMatch(l -> l.contains("10.0.0.12:80") && l.contains("1,000")), report.toString());
        assertTrue(report.stream().noneMatch(l -> l.contains("WARNING")), report.toString());
    }

    @Test
    void aRealserverWhoseClockIsBehindIsWarnedAbout(@TempDir Path dir) throws Exception {
        StringBuilder a = new StringBuilder();
        long t = 1_795_000_000_000_000L;
        for (int i = 0; i < 100; i++) {
            a.append(line("10.0.0.13:80", t + i * 1000L, -20_000, 2)).append('\n');
        }
        List<String> report = BlockingTimeReport.lines(BlockingTimes.read(List.of(Files.writeString(
                dir.resolve("web3.log"), a))));
        assertTrue(report.stream().anyMatch(l -> l.contains("WARNING 10.0.0.13:80: 100 values (100.0 %) are negative"
                + ", down to -20.0 ms") && l.contains("clock")), report.toString());
    }

    @Test
    void theOlderMillisecondStampIsReadToo() {
        assertEquals(1_795_000_000_123_000L, BlockingTimes.toMicros("1795000000123"));
        assertEquals(1_795_000_000_123_456L, BlockingTimes.toMicros("1795000000123456"));
    }

    @Test
    void anAccessLogWithoutTheStampFieldGetsAClearMessageAndExit2(@TempDir Path dir) throws Exception {
        Path combined = Files.writeString(dir.resolve("access.log"),
                "127.0.0.1 - - [23/Nov/2026:01:00:00 +0000] \"GET / HTTP/1.1\" 200 18 \"-\" \"curl\"\n");
        Path unstamped = Files.writeString(dir.resolve("direct.log"),
                "msec=1795000000.100 rt=0.001 xrs=\"-\" server=10.0.0.11:80\n");
        for (Path log : List.of(combined, unstamped, dir.resolve("missing.log"))) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            CommandLine cli = StampedeCommand.commandLine();
            cli.setOut(new PrintWriter(out, true));
            cli.setErr(new PrintWriter(err, true));
            assertEquals(2, cli.execute("blocking-time", log.toString()), err.toString());
            assertTrue(err.toString().startsWith("stampede blocking-time: " + log + ": "), err.toString());
            assertEquals("", out.toString());
        }
        StringWriter err = new StringWriter();
        CommandLine cli = StampedeCommand.commandLine();
        cli.setErr(new PrintWriter(err, true));
        cli.setOut(new PrintWriter(new StringWriter(), true));
        cli.execute("blocking-time", combined.toString());
        assertTrue(err.toString().contains("none of its 1 lines has the msec=, rt= and xrs= fields")
                && err.toString().contains("`blocking` log_format"), err.toString());
        cli.execute("blocking-time", unstamped.toString());
        assertTrue(err.toString().contains("has an X-Request-Start stamp"), err.toString());
    }
}
