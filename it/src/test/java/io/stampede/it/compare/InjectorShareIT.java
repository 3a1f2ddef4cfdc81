/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The injector's own share: the same plan run twice against the built-in target, once on a quiet machine and once
 * while busy loops (two per core, ended after 40 s whatever happens) take the CPU. The starved run's summary
 * names the injector as a suspect, the quiet one's does not; both folders hold injector.csv; compare shows both.
 * Needs the machine to itself (CI does). About 60 s.
 */
class InjectorShareIT {

    private static final Path ROOT = Path.of(System.getProperty("stampede.root", "..")).toAbsolutePath().normalize();

    private static List<String> cli(String... args) {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Dstampede.root=" + ROOT, "-jar", ROOT.resolve("src/target/stampede.jar").toString()));
        cmd.addAll(List.of(args));
        return cmd;
    }

    private static String run(Path log, List<String> cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!p.waitFor(180, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroy);
            p.destroyForcibly();
            throw new AssertionError("timed out: " + cmd);
        }
        String out = Files.readString(log);
        assertEquals(0, p.exitValue(), out);
        return out;
    }

    private static List<String> paced(Path out) {
        return cli("run", ROOT.resolve("plans/paced.jmx").toString(), "-J", "threads=4", "-J", "duration=15",
                "-J", "rampup=1", "--no-dashboard", "--out", out.toString());
    }

    @Test
    void aStarvedRunIsFlaggedAndAQuietOneIsNot(@TempDir Path tmp) throws Exception {
        String quiet = run(tmp.resolve("quiet.log"), paced(tmp.resolve("quiet")));
        // Others' load = the machine's CPU minus JMeter's: past half the cores this is no quiet run to judge.
        java.util.regex.Matcher cpu = java.util.regex.Pattern.compile("CPU JMeter ([\\d.]+), machine ([\\d.]+) of "
                + "(\\d+) cores").matcher(quiet);
        assertTrue(cpu.find(), quiet);
        double others = Double.parseDouble(cpu.group(2)) - Double.parseDouble(cpu.group(1));
        Assumptions.assumeTrue(others < Integer.parseInt(cpu.group(3)) / 2.0,
                "other processes took " + others + " cores during the quiet run:\n" + quiet);
        assertTrue(quiet.contains("injector: ") && quiet.contains("(below the thresholds)"), quiet);
        // the Stampede sampler's engine ran: its event loops were probed
        assertTrue(quiet.matches("(?s).*event loops lag p90 [\\d.]+ ms, max \\d+ ms.*"), quiet);
        assertFalse(quiet.contains("SUSPECT injector"), quiet);

        List<Process> hogs = new ArrayList<>();
        try {
            for (int i = 0; i < 2 * Runtime.getRuntime().availableProcessors(); i++) {
                hogs.add(new ProcessBuilder("timeout", "40", "sh", "-c", "while :; do :; done").start());
            }
            String starved = run(tmp.resolve("starved.log"), paced(tmp.resolve("starved")));
            assertTrue(starved.contains("SUSPECT injector: ") && starved.contains("the latencies above include "
                    + "the injector's own delay"), starved);
            assertTrue(starved.matches("(?s).*CPU \\d\\.\\d\\d of \\d+ cores busy.*"), "the machine's CPU:\n" + starved);
        } finally {
            for (Process h : hogs) {
                h.destroy();
            }
        }
        for (String run : List.of("quiet", "starved")) {
            List<String> rows = Files.readAllLines(tmp.resolve(run).resolve("injector.csv"));
            assertTrue(rows.get(0).startsWith("second,process_cpu_cores,machine_cpu_cores,cores,gc_pause_ms"));
            assertTrue(rows.get(0).endsWith(",loop_lag_max_ms"), rows.get(0));
            assertTrue(rows.stream().skip(1).anyMatch(r -> r.split(",").length == 9), run + ": loop lag figures");
            assertTrue(rows.size() > 10, run + ": a row a second: " + rows.size());
            assertTrue(Files.readString(tmp.resolve(run).resolve("summary.txt")).contains("injector: "), run);
        }
        String cmp = run(tmp.resolve("compare.log"), cli("compare", tmp.resolve("quiet").toString(),
                tmp.resolve("starved").toString(), "-o", tmp.resolve("cmp").toString()));
        assertTrue(cmp.contains("injector  ok") && cmp.contains("SUSPECT"), cmp);
        assertTrue(cmp.contains("SUSPECT injector in starved: "), cmp);
    }
}
