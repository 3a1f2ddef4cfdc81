/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.plugins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.it.support.JMeterHome;
import io.stampede.it.support.Jtl;
import io.stampede.it.support.Plans;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Plans that use other plugins (issue 38): a plan with the Throughput Shaping Timer, the Dummy Sampler and a jpgc
 * function runs on a fresh JMeter home with no manual step (the plugins come from Maven Central) and opens in
 * `stampede gui`; a plan with a class nobody provides stops before anything starts, naming its line and class.
 */
class PluginsIT {

    private static final Path ROOT = JMeterHome.stampedeRoot();

    @TempDir
    Path dir;

    @Test
    void anUnknownClassStopsTheRunBeforeAnythingStartsNamingItsLineAndClass() throws Exception {
        Path plan = Plans.get("unknown-class.jmx");
        Path out = dir.resolve("out");
        // the same CLI refusing a plan file that does not exist: the JVM's start and nothing of the preflight
        long start = System.nanoTime();
        Cli none = cli(dir.resolve("none.out"), 60, "run", dir.resolve("none.jmx").toString());
        long baseline = (System.nanoTime() - start) / 1_000_000;
        assertEquals(2, none.exit, none.output);
        start = System.nanoTime();
        Cli run = cli(dir.resolve("unknown.out"), 60, "run", plan.toString(), "--out", out.toString());
        long ms = (System.nanoTime() - start) / 1_000_000;
        assertEquals(2, run.exit, run.output);
        assertTrue(run.output.contains("stampede run: unknown-class.jmx uses classes the JMeter at "
                + ROOT.resolve("src/target/jmeter-home") + " does not have (nothing was started):"), run.output);
        assertTrue(run.output.contains("  unknown-class.jmx:13  \"Users\"  com.example.NoSuchThreadGroup\n"
                + "      no artifact in Stampede's catalogue provides it"), run.output);
        assertFalse(run.output.contains("built-in target"), "no target was started:\n" + run.output);
        assertFalse(Files.exists(out), "no results folder");
        assertTrue(run.descendants.isEmpty(), "no JMeter process was started: " + run.descendants);
        System.out.printf("PluginsIT: stampede run refused an unknown class in %d ms (a missing plan file: %d ms)%n",
                ms, baseline);
        // Under 2 s; on a machine so busy that even refusing a missing file takes seconds, the preflight (plan, index
        // and the JMeter's jars read) must still add under 2 s to that: no target, download or JMeter start fits in it.
        assertTrue(ms < 2000 || ms - baseline < 2000, "refused in " + ms + " ms, a missing file in " + baseline);
    }

    @Test
    void aPlanWithJmeterPluginsRunsOnAFreshHomeAndOpensInTheGui() throws Exception {
        Path home = dir.resolve("jmeter");
        copy(ROOT.resolve("src/target/jmeter-home"), home);
        Set<String> extBefore = names(home.resolve("lib/ext"));
        Path plan = Plans.get("jpgc-plugins.jmx");
        Path out = dir.resolve("run");

        Cli run = cli(dir.resolve("run.out"), 240, "run", plan.toString(), "--jmeter-home", home.toString(),
                "--out", out.toString(), "--no-dashboard", "--heap", "512m", "-J", "duration=3");
        assertEquals(0, run.exit, run.output);
        assertTrue(run.output.contains("stampede run: plugins: added jpgc-dummy, jpgc-functions, jpgc-tst from Maven"
                + " Central for jpgc-plugins.jmx (cached in " + dir.resolve("jmeter-plugins") + ")"), run.output);
        Jtl jtl = Jtl.read(out.resolve("results.jtl"));
        assertEquals(Set.of("dummy 8"), Set.copyOf(jtl.labels()), "the Dummy Sampler ran, named by __strLen");
        assertTrue(jtl.rows().size() > 10, "samples: " + jtl.rows().size());
        assertEquals(0, jtl.errors());
        assertTrue(Files.readString(out.resolve("jmeter.log")).contains("VariableThroughputTimer"),
                "the Throughput Shaping Timer ran");
        assertTrue(Files.isRegularFile(dir.resolve("jmeter-plugins/kg/apc/jmeter-plugins-tst/2.5/jmeter-plugins-tst-2.5.jar")));
        assertEquals(extBefore, names(home.resolve("lib/ext")), "the JMeter home itself is not changed");

        Assumptions.assumeTrue(new File("/usr/bin/xvfb-run").canExecute(), "xvfb-run is installed by it/run-tests.sh");
        Path labels = dir.resolve("gui.labels.txt");
        Cli gui = cli(dir.resolve("gui.out"), 150, List.of("xvfb-run", "-a", "-s", "-screen 0 1024x900x24"), "gui",
                plan.toString(), "--jmeter-home", home.toString(), "--heap", "512m",
                "-J", "jsr223.init.file=" + ROOT.resolve("it/src/test/resources/gui/screenshot.groovy"),
                "-J", "stampede.gui.select=Shaping", "-J", "stampede.gui.width=1024", "-J", "stampede.gui.height=900",
                "-J", "stampede.gui.png=" + dir.resolve("gui.png"), "-J", "stampede.gui.labels=" + labels);
        assertEquals(0, gui.exit, gui.output);
        assertTrue(Files.readString(labels).startsWith("panel=kg.apc.jmeter.timers.VariableThroughputTimerGui\n"),
                Files.readString(labels));
    }

    private static Set<String> names(Path folder) throws Exception {
        try (Stream<Path> s = Files.list(folder)) {
            return s.map(p -> p.getFileName().toString()).collect(Collectors.toSet());
        }
    }

    private static void copy(Path from, Path to) throws Exception {
        try (Stream<Path> all = Files.walk(from)) {
            for (Path p : all.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }

    private record Cli(int exit, String output, List<ProcessHandle> descendants) {}

    private Cli cli(Path console, int seconds, String... args) throws Exception {
        return cli(console, seconds, List.of(), args);
    }

    /** The built CLI as ./stampede runs it, with the JMeter processes it left behind (killed, and reported). */
    private Cli cli(Path console, int seconds, List<String> prefix, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(prefix);
        cmd.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dstampede.root=" + ROOT, "-jar", ROOT.resolve("src/target/stampede.jar").toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(console.toFile()).start();
        List<ProcessHandle> seen = new ArrayList<>();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            while (!p.waitFor(50, TimeUnit.MILLISECONDS)) {
                p.descendants().filter(h -> !seen.contains(h)).forEach(seen::add);
                if (System.nanoTime() > deadline) {
                    throw new AssertionError(String.join(" ", args) + " did not finish in " + seconds + " s:\n"
                            + Files.readString(console));
                }
            }
        } finally {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        return new Cli(p.exitValue(), Files.readString(console), seen);
    }
}
