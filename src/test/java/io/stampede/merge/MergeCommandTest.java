/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.cli.ExitCodes;
import io.stampede.cli.StampedeCommand;
import io.stampede.results.LatencyHistogramFile;
import io.stampede.share.Share;
import io.stampede.share.ShareRecord;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class MergeCommandTest {

    private static final String HEADER = "timeStamp,elapsed,label,responseCode,responseMessage,threadName,success,"
            + "bytes,allThreads,stampede_elapsed_us";

    @TempDir
    Path dir;

    /** A share's folder whose samples start at the given times, each with the latency in µs given. */
    private Path share(String name, Path plan, Share share, Map<String, String> props, long[] starts, long[] micros)
            throws Exception {
        Path d = Files.createDirectories(dir.resolve(name));
        ShareRecord.of(plan, share, props).write(d);
        StringBuilder jtl = new StringBuilder(HEADER).append('\n');
        Histogram h = new Histogram(3);
        // JMeter writes a sample when it ends: the rows are not in start order
        for (int i = starts.length - 1; i >= 0; i--) {
            jtl.append(starts[i]).append(',').append(micros[i] / 1000).append(",GET /,200,\"OK, fine\",")
                    .append(share.prefix()).append("-Users 1-1,true,10,1,").append(micros[i]).append('\n');
            h.recordValue(micros[i]);
        }
        Files.writeString(d.resolve("results.jtl"), jtl);
        Map<String, Histogram> tags = new LinkedHashMap<>();
        tags.put(LatencyHistogramFile.ELAPSED, h);
        LatencyHistogramFile.write(d.resolve("latency.hlog"), tags, starts[0], starts[starts.length - 1] + 1);
        return d;
    }

    private int merge(StringWriter err, String... args) {
        CommandLine cli = StampedeCommand.commandLine();
        cli.setOut(new PrintWriter(new StringWriter()));
        cli.setErr(new PrintWriter(err));
        List<String> all = new ArrayList<>(List.of("merge", "--no-dashboard"));
        all.addAll(List.of(args));
        return cli.execute(all.toArray(String[]::new));
    }

    @Test
    void sharesBecomeOneJtlInTimeOrderAndOneExactHistogram() throws Exception {
        Path plan = Files.writeString(dir.resolve("p.jmx"), "<jmeterTestPlan/>");
        Path a = share("a", plan, new Share(1, 2), Map.of("threads", "10", "port", "1"),
                new long[] {1000, 1003, 1006}, new long[] {1000, 2000, 90000});
        Path b = share("b", plan, new Share(2, 2), Map.of("threads", "10", "port", "2"),
                new long[] {1001, 1002, 1010, 1011}, new long[] {3000, 4000, 5000, 6000});
        Path out = dir.resolve("merged");
        StringWriter err = new StringWriter();
        assertEquals(ExitCodes.OK, merge(err, a.toString(), b.toString(), "-o", out.toString()), err.toString());
        List<String> rows = Files.readAllLines(out.resolve("results.jtl"));
        assertEquals(HEADER, rows.get(0));
        List<Long> stamps = rows.subList(1, rows.size()).stream().map(r -> Long.parseLong(r.split(",")[0])).toList();
        assertEquals(List.of(1000L, 1001L, 1002L, 1003L, 1006L, 1010L, 1011L), stamps);
        Histogram merged = LatencyHistogramFile.read(out.resolve("latency.hlog")).get(LatencyHistogramFile.ELAPSED);
        assertEquals(7, merged.getTotalCount());
        // the exact p50 of all seven values is 4 ms; the mean of the shares' p50s would be 3.5 ms
        assertEquals(4000, merged.getValueAtPercentile(50), 4000 * 0.001);
        assertEquals(90000, merged.getMaxValue(), 90000 * 0.001);
        String summary = Files.readString(out.resolve("summary.txt"));
        assertTrue(summary.contains("samples    7 in"), summary);
        assertTrue(summary.contains("i1of2    samples 3 in"), summary);
        assertTrue(summary.contains("i2of2    samples 4 in"), summary);
        try (Stream<Path> left = Files.list(dir)) {
            assertTrue(left.noneMatch(p -> p.getFileName().toString().contains(".merging-")), "no staging folder left");
        }
    }

    @Test
    void theSteadyStateOfAllSharesLeavesTheRampUpOut() throws Exception {
        Path plan = Files.writeString(dir.resolve("p.jmx"), "<jmeterTestPlan/>");
        // each share's first second is slow (its ramp-up); from 2 s on, 6 samples of 2-7 ms in 3 whole 1-s windows
        Path a = share("a", plan, new Share(1, 2), Map.of(), new long[] {100_000, 101_000, 102_100, 103_100, 104_500},
                new long[] {50_000, 1000, 2000, 3000, 4000});
        Path b = share("b", plan, new Share(2, 2), Map.of(), new long[] {100_500, 102_500, 103_500, 104_900},
                new long[] {60_000, 5000, 6000, 7000});
        Path out = dir.resolve("merged");
        StringWriter err = new StringWriter();
        assertEquals(ExitCodes.OK, merge(err, "--window", "1", "--steady-after", "2", a.toString(), b.toString(), "-o",
                out.toString()), err.toString());
        String steady = Files.readAllLines(out.resolve("summary.txt")).stream().filter(l -> l.startsWith("  steady "))
                .findFirst().orElseThrow();
        assertTrue(steady.startsWith("  steady     2-5 s: 2 req/s  p50 "), steady);
        assertTrue(steady.contains("errors 0"), steady);
        assertTrue(steady.contains("max 7.0 ms"), "the ramp-up's 50 and 60 ms are left out: " + steady);

        err = new StringWriter();
        assertEquals(ExitCodes.BAD_INPUT, merge(err, "--steady-after", "-1", a.toString(), b.toString(), "-o",
                dir.resolve("merged2").toString()));
        assertTrue(err.toString().contains("--steady-after -1: give 0 or more seconds"), err.toString());
        assertTrue(Files.notExists(dir.resolve("merged2")), "nothing written");
    }

    @Test
    void differentPlansOverlappingSharesOrSettingsAreRefusedAndNothingIsWritten() throws Exception {
        Path plan = Files.writeString(dir.resolve("p.jmx"), "<jmeterTestPlan/>");
        Path other = Files.writeString(dir.resolve("q.jmx"), "<jmeterTestPlan><hashTree/></jmeterTestPlan>");
        long[] t = {1000, 1001};
        long[] us = {1000, 2000};
        Path a = share("a", plan, new Share(1, 2), Map.of(), t, us);
        Path sameShare = share("a2", plan, new Share(1, 2), Map.of(), t, us);
        Path otherPlan = share("b", other, new Share(2, 2), Map.of(), t, us);
        Path otherProps = share("c", plan, new Share(2, 2), Map.of("threads", "99"), t, us);
        Path otherCount = share("d", plan, new Share(2, 3), Map.of(), t, us);
        Map<Path, String> expected = Map.of(
                sameShare, "are both share 1/2: overlapping shares",
                otherPlan, "ran q.jmx and " + a + " ran p.jmx: different plans",
                otherProps, "with different -J properties",
                otherCount, "is share 2/3 and " + a + " share 1/2");
        Path out = dir.resolve("merged");
        for (Map.Entry<Path, String> e : expected.entrySet()) {
            StringWriter err = new StringWriter();
            assertEquals(ExitCodes.BAD_INPUT, merge(err, a.toString(), e.getKey().toString(), "-o", out.toString()));
            assertTrue(err.toString().startsWith("stampede merge: "), err.toString());
            assertTrue(err.toString().contains(e.getValue()), err.toString());
            assertTrue(Files.notExists(out), "nothing written");
        }
        StringWriter err = new StringWriter();
        Path notShare = Files.createDirectories(dir.resolve("whole"));
        assertEquals(ExitCodes.BAD_INPUT, merge(err, a.toString(), notShare.toString(), "-o", out.toString()));
        assertTrue(err.toString().contains("has no share.properties"), err.toString());
        Files.writeString(Files.createDirectories(out).resolve("x"), "earlier");
        err = new StringWriter();
        assertEquals(ExitCodes.BAD_INPUT, merge(err, a.toString(), "-o", out.toString()));
        assertTrue(err.toString().contains("is not empty"), err.toString());
    }
}
