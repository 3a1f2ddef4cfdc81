/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.it.support.JMeterHome;
import io.stampede.it.support.Jtl;
import io.stampede.it.support.JtlRow;
import io.stampede.it.support.NginxServer;
import io.stampede.it.support.Plans;
import io.stampede.results.LatencyHistogramFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Independent injectors, the way past one controller: one plan run whole and as 3 shares (3 `stampede run --share`
 * processes started together), then `stampede merge`. The plan has a fixed number of samples (7 users x 5 loops x
 * 3 requests, one of which always fails), so the merged counts must equal the whole run's exactly; the merged
 * histogram's percentiles must be those of the merged JTL's samples; no CSV user may log in from two shares.
 */
class SharesMergeIT {

    private static final Path ROOT = JMeterHome.stampedeRoot();
    private static final int SHARES = 3;

    private final List<Process> processes = new ArrayList<>();
    private NginxServer nginx;

    @TempDir
    Path dir;

    @AfterEach
    void stopEverything() {
        for (Process p : processes) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        if (nginx != null) {
            nginx.close();
        }
    }

    private Process start(String name, String... options) throws IOException {
        List<String> args = new ArrayList<>(List.of("run", Plans.get("shares.jmx").toString(), "--out",
                dir.resolve(name).toString(), "--no-dashboard", "--heap", "256m", "--host", "127.0.0.1", "--port",
                Integer.toString(nginx.port())));
        args.addAll(List.of(options));
        Process p = new ProcessBuilder(StampedeCli.command(ROOT, args.toArray(String[]::new))).directory(dir.toFile())
                .redirectErrorStream(true).redirectOutput(dir.resolve(name + ".out").toFile()).start();
        processes.add(p);
        return p;
    }

    private int finish(Process p, String name) throws Exception {
        if (!p.waitFor(180, TimeUnit.SECONDS)) {
            throw new AssertionError(name + " did not finish in 180 s:\n" + Files.readString(dir.resolve(name + ".out")));
        }
        return p.exitValue();
    }

    @Test
    void threeSharesMergedCountAsTheWholePlan() throws Exception {
        nginx = NginxServer.start(NginxServer.Options.defaults());
        Process whole = start("whole");
        List<Process> shares = new ArrayList<>();
        for (int i = 1; i <= SHARES; i++) {
            shares.add(start("share" + i, "--share", i + "/" + SHARES));
        }
        assertEquals(0, finish(whole, "whole"), Files.readString(dir.resolve("whole.out")));
        for (int i = 1; i <= SHARES; i++) {
            assertEquals(0, finish(shares.get(i - 1), "share" + i), Files.readString(dir.resolve("share" + i + ".out")));
        }
        Path merged = dir.resolve("merged");
        Process merge = new ProcessBuilder(StampedeCli.command(ROOT, "merge", "--no-dashboard",
                dir.resolve("share1").toString(), dir.resolve("share2").toString(), dir.resolve("share3").toString(),
                "-o", merged.toString())).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("merge.out").toFile()).start();
        processes.add(merge);
        assertEquals(0, finish(merge, "merge"), Files.readString(dir.resolve("merge.out")));

        Jtl one = Jtl.read(dir.resolve("whole/results.jtl"));
        Jtl all = Jtl.read(merged.resolve("results.jtl"));
        assertEquals(7 * 5 * 3, one.count(), "the plan's own count");
        assertEquals(one.count(), all.count(), "samples");
        assertEquals(one.errors(), all.errors(), "errors");
        assertEquals(7 * 5, all.errors(), "every /missing fails");
        assertEquals(perLabel(one), perLabel(all), "samples per label");

        // the threads of each share carry it, and the users were divided 3 + 2 + 2
        Map<String, Integer> perShare = new TreeMap<>();
        for (JtlRow r : all.rows()) {
            perShare.merge(r.threadName().substring(0, r.threadName().indexOf('-')), 1, Integer::sum);
        }
        assertEquals(Map.of("i1of3", 3 * 5 * 3, "i2of3", 2 * 5 * 3, "i3of3", 2 * 5 * 3), perShare);

        // one JTL in time order
        long last = 0;
        for (JtlRow r : all.rows()) {
            assertTrue(r.timeStamp() >= last, "merged JTL not in time order at " + r);
            last = r.timeStamp();
        }

        // the merged histogram holds exactly the merged JTL's latencies
        Histogram fromJtl = new Histogram(3_600_000_000L, 3);
        for (JtlRow r : all.rows()) {
            String us = r.get("stampede_elapsed_us");
            fromJtl.recordValue(us.matches("\\d+") ? Long.parseLong(us) : r.elapsed() * 1000);
        }
        Histogram hlog = LatencyHistogramFile.read(merged.resolve("latency.hlog")).get(LatencyHistogramFile.ELAPSED);
        assertEquals(fromJtl.getTotalCount(), hlog.getTotalCount(), "values in the merged histogram");
        for (double p : new double[] {50, 99}) {
            assertEquals(fromJtl.getValueAtPercentile(p), hlog.getValueAtPercentile(p), "p" + p);
        }

        // no CSV user logged in from two shares, and every share used its own
        Map<String, Set<String>> usersByShare = new TreeMap<>();
        for (JtlRow r : all.label("login").rows()) {
            String user = r.url().substring(r.url().indexOf("user=") + 5);
            usersByShare.computeIfAbsent(r.threadName().substring(0, 5), k -> new TreeSet<>()).add(user);
        }
        Set<String> seen = new HashSet<>();
        for (Map.Entry<String, Set<String>> e : usersByShare.entrySet()) {
            for (String user : e.getValue()) {
                assertTrue(seen.add(user), user + " logged in from two shares: " + usersByShare);
            }
        }
        assertEquals(Map.of("i1of3", 4, "i2of3", 3, "i3of3", 3), usersByShare.entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().size())), usersByShare.toString());

        String summary = Files.readString(merged.resolve("summary.txt"));
        assertTrue(summary.contains("samples    105 in"), summary);
        try (Stream<Path> plans = Files.list(Plans.get("shares.jmx").getParent())) {
            assertEquals(List.of(), plans.filter(p -> p.getFileName().toString().startsWith(".shares.")).toList(),
                    "the shares' plans are deleted after their runs");
        }
    }

    /**
     * {@code --start-at}: the share's JMeter starts at once and its thread groups wait for the moment, so shares
     * launched apart ramp up together. Its first sample is not before the moment, and JMeter's log shows the plugin's
     * element held the start (or, on a machine too busy to start JMeter by then, that it came up late).
     */
    @Test
    void aShareWithAStartTimeHoldsItsThreadGroupsUntilThen() throws Exception {
        nginx = NginxServer.start(NginxServer.Options.defaults());
        Instant at = Instant.now().plusSeconds(25).truncatedTo(ChronoUnit.SECONDS);
        Process share = start("share1", "--share", "1/2", "--start-at", at.toString());
        assertEquals(0, finish(share, "share1"), Files.readString(dir.resolve("share1.out")));
        assertTrue(Files.readString(dir.resolve("share1.out")).contains("the thread groups start at " + at));
        String log = Files.readString(dir.resolve("share1/jmeter.log"));
        assertTrue(log.contains("Stampede start-at " + at), log);
        Jtl jtl = Jtl.read(dir.resolve("share1/results.jtl"));
        assertEquals(4 * 5 * 3, jtl.count(), "4 of the plan's 7 users");
        long first = jtl.rows().stream().mapToLong(JtlRow::timeStamp).min().orElseThrow();
        assertTrue(first >= at.toEpochMilli(), "a sample at " + Instant.ofEpochMilli(first) + ", before " + at);
    }

    private static Map<String, Long> perLabel(Jtl jtl) {
        return jtl.rows().stream().collect(Collectors.groupingBy(JtlRow::label, TreeMap::new, Collectors.counting()));
    }
}
