/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.stampede.it.support.Jtl;
import io.stampede.it.support.ProcessTrees;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * `stampede run` meeting the faults of docs/faults-runs.md with real parts: two CLIs started together, a Ctrl-C sent
 * to the process group as a terminal sends it, and a results folder on a 1 MB tmpfs.
 */
class RunFaultsIT {

    private static final Path ROOT = Path.of(System.getProperty("stampede.root", "..")).toAbsolutePath().normalize();
    private static final Path PLAN = ROOT.resolve("plans/quickstart.jmx");
    private static final Pattern SAMPLES = Pattern.compile("samples\\s+([\\d,]+) in ");
    private static final Pattern RESULTS_IN = Pattern.compile("stampede run: results in (\\S+)");
    /** yyyyMMdd-HHmmss, the start time at the head of a default folder's name. */
    private static final int SECOND_PREFIX = 15;

    @Test
    void twoRunsOfOnePlanStartedInTheSameSecondGetAFolderEach(@TempDir Path tmp) throws Exception {
        // The default name holds the start time to the second. Both CLIs start at once; an attempt whose runs took
        // their names either side of a second's boundary proves nothing either way, and is stopped as soon as both
        // have named their folders and made again (bounded).
        for (int attempt = 1; attempt <= 8; attempt++) {
            Path cwd = Files.createDirectories(tmp.resolve("attempt-" + attempt));
            List<String> run = List.of("run", PLAN.toString(), "-J", "threads=2", "-J", "duration=1", "-J", "rampup=0",
                    "--no-dashboard");
            Process a = cli(cwd, "a", run);
            Process b = cli(cwd, "b", run);
            try {
                Path folderA = resultsFolder(cwd, "a", a);
                Path folderB = resultsFolder(cwd, "b", b);
                if (!second(folderA).equals(second(folderB))) {
                    continue;
                }
                assertTrue(a.waitFor(180, TimeUnit.SECONDS) && b.waitFor(60, TimeUnit.SECONDS), "both runs ended");
                String both = describe(cwd, "a") + describe(cwd, "b");
                assertEquals(0, a.exitValue(), both);
                assertEquals(0, b.exitValue(), both);
                List<Path> folders = listing(cwd.resolve("results"));
                assertEquals(2, folders.size(), "two runs started in one second, two folders: " + folders + "\n" + both);
                assertFalse(folderA.equals(folderB), both);
                for (Path folder : List.of(folderA, folderB)) {
                    String summary = Files.readString(folder.resolve("summary.txt"));
                    Matcher m = SAMPLES.matcher(summary);
                    assertTrue(m.find(), summary);
                    assertEquals(Long.parseLong(m.group(1).replace(",", "")),
                            Jtl.read(folder.resolve("results.jtl")).count(),
                            folder + ": the summary counts exactly the rows of its own JTL");
                }
                return;
            } finally {
                ProcessTrees.kill(a);
                ProcessTrees.kill(b);
            }
        }
        throw new AssertionError("no attempt of 8 started both runs within one second");
    }

    @Test
    void ctrlCToTheProcessGroupStopsJMeterAndWritesAnInterruptedSummaryAndHistogram(@TempDir Path tmp)
            throws Exception {
        Path out = tmp.resolve("out");
        List<String> cmd = new ArrayList<>(List.of(
                // Own process group, SIGINT not ignored: `kill -INT -group` is then what Ctrl-C in a terminal does.
                "setsid", "env", "--default-signal=INT", ROOT.resolve("stampede").toString(), "run", PLAN.toString(),
                "--out", out.toString(), "-J", "threads=4", "-J", "duration=300", "-J", "rampup=0",
                "--progress-every", "1"));
        Process cli = new ProcessBuilder(cmd).directory(tmp.toFile())
                .redirectOutput(tmp.resolve("a.out").toFile()).redirectError(tmp.resolve("a.err").toFile()).start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (cli.isAlive() && System.nanoTime() < deadline && !recorded(out.resolve("results.jtl"), 500)) {
                Thread.sleep(500);
            }
            assertTrue(cli.isAlive(), "the run was still going:\n" + describe(tmp, "a"));
            List<ProcessHandle> jmeter = cli.descendants().toList();
            assertFalse(jmeter.isEmpty(), "JMeter runs as the CLI's child");
            Process kill = new ProcessBuilder("kill", "-INT", "--", "-" + cli.pid()).start();
            assertTrue(kill.waitFor(10, TimeUnit.SECONDS) && kill.exitValue() == 0, "kill -INT -- -" + cli.pid());

            assertTrue(cli.waitFor(180, TimeUnit.SECONDS), "the CLI ended after Ctrl-C:\n" + describe(tmp, "a"));
            String said = describe(tmp, "a");
            assertEquals(130, cli.exitValue(), "the exit says interrupted (128 + SIGINT):\n" + said);
            for (ProcessHandle p : jmeter) {
                p.onExit().get(15, TimeUnit.SECONDS);
            }
            assertTrue(said.contains("(INTERRUPTED)") && said.contains("INTERRUPTED by Ctrl-C"),
                    "the console says the summary is of an interrupted run:\n" + said);
            String summary = Files.readString(out.resolve("summary.txt"));
            assertTrue(summary.contains("INTERRUPTED by Ctrl-C"), "and so does summary.txt:\n" + summary);
            Matcher m = SAMPLES.matcher(summary);
            assertTrue(m.find(), summary);
            String jtl = Files.readString(out.resolve("results.jtl"));
            assertTrue(jtl.endsWith("\n"), "JMeter was stopped, not killed: its JTL ends with a whole row");
            assertEquals(Long.parseLong(m.group(1).replace(",", "")), Jtl.read(out.resolve("results.jtl")).count(),
                    "the summary counts every sample JMeter recorded until the stop");
            assertTrue(Files.size(out.resolve("latency.hlog")) > 0, "the histogram was written");
            assertTrue(Files.isRegularFile(out.resolve("dashboard/index.html"))
                    || said.contains("dashboard  NOT generated"), "a dashboard, or the reason there is none:\n" + said);
        } finally {
            ProcessTrees.kill(cli);
        }
    }

    @Test
    void aResultsFolderOnAFullDiskIsReportedWithTheFixAndNotSummarized(@TempDir Path tmp) throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "mounting a tmpfs needs root");
        Path disk = Files.createDirectories(tmp.resolve("disk"));
        exec("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", disk.toString());
        try {
            Path out = disk.resolve("run");
            StampedeRunIT.Result r = StampedeRunIT.stampede(List.of("run", PLAN.toString(), "--out", out.toString(),
                    "-J", "threads=8", "-J", "duration=15", "-J", "rampup=0", "--progress-every", "1",
                    "--no-dashboard"), 180);
            assertEquals(6, r.exit(), "a non-zero exit (this machine cannot write the results):\n" + r.describe());
            assertTrue(r.stderr().contains("the disk holding " + out + " ran full"), r.describe());
            assertTrue(r.stderr().contains("no summary is computed") && r.stderr().contains("df -h " + out)
                    && r.stderr().contains("give --out a folder on a disk with room"), r.describe());
            assertTrue(r.stdout().contains("WARNING: the disk holding " + out + " is full"),
                    "said while the run goes on:\n" + r.describe());
            assertFalse(SAMPLES.matcher(r.stdout()).find(), "no summary from the truncated JTL:\n" + r.describe());
            assertFalse(Files.exists(out.resolve("summary.txt")));
        } finally {
            unmount(disk);
        }
    }

    private static Process cli(Path cwd, String name, List<String> args) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(ROOT.resolve("stampede").toString());
        cmd.addAll(args);
        return new ProcessBuilder(cmd).directory(cwd.toFile()).redirectOutput(cwd.resolve(name + ".out").toFile())
                .redirectError(cwd.resolve(name + ".err").toFile()).start();
    }

    /** The folder the CLI says it writes to, once it has said so (bounded wait). */
    private static Path resultsFolder(Path cwd, String name, Process cli) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline) {
            Matcher m = RESULTS_IN.matcher(Files.readString(cwd.resolve(name + ".out")));
            if (m.find()) {
                return Path.of(m.group(1));
            }
            assertTrue(cli.isAlive(), "the run ended without naming its folder:\n" + describe(cwd, name));
            Thread.sleep(100);
        }
        throw new AssertionError("no results folder named within 120 s:\n" + describe(cwd, name));
    }

    private static String second(Path folder) {
        return folder.getFileName().toString().substring(0, SECOND_PREFIX);
    }

    private static String describe(Path cwd, String name) throws IOException {
        return "--- " + name + ".out\n" + Files.readString(cwd.resolve(name + ".out")) + "--- " + name + ".err\n"
                + Files.readString(cwd.resolve(name + ".err"));
    }

    private static List<Path> listing(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.sorted().toList();
        }
    }

    /** Whether the JTL holds at least {@code rows} rows (lines, the header among them). */
    private static boolean recorded(Path jtl, int rows) throws IOException {
        if (!Files.exists(jtl)) {
            return false;
        }
        try (Stream<String> lines = Files.lines(jtl)) {
            return lines.limit(rows + 1).count() > rows;
        }
    }

    /** Unmounts, waiting (bounded) for the killed JMeter to let go of its files; lazily as the last resort. */
    private static void unmount(Path disk) throws IOException, InterruptedException {
        for (int i = 0; i < 20; i++) {
            Process p = new ProcessBuilder("umount", disk.toString()).redirectErrorStream(true).start();
            if (p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0) {
                return;
            }
            Thread.sleep(500);
        }
        exec("umount", "-l", disk.toString());
    }

    private static void exec(String... cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), String.join(" ", cmd));
        assertEquals(0, p.exitValue(), String.join(" ", cmd) + ": " + new String(p.getInputStream().readAllBytes()));
    }
}
