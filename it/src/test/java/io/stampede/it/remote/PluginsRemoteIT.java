/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.it.support.FreePort;
import io.stampede.it.support.JMeterHome;
import io.stampede.it.support.Jtl;
import io.stampede.it.support.JtlRow;
import io.stampede.it.support.Plans;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A plan with jmeter-plugins (Throughput Shaping Timer, Dummy Sampler, a jpgc function) on two local engines: each
 * `stampede server --plan` gets the plugins the plan needs before its engine starts, the controller its own, and
 * both engines' samples come back; engines started without them are named with the class each lacks.
 */
class PluginsRemoteIT {

    private static final Path ROOT = JMeterHome.stampedeRoot();

    private final List<EngineProcess> engines = new ArrayList<>();

    @TempDir
    Path dir;

    @AfterEach
    void stopEngines() {
        engines.forEach(EngineProcess::close);
    }

    @Test
    void twoEnginesRunAPlanWithJmeterPlugins() throws Exception {
        Path plan = Plans.get("jpgc-plugins.jmx");
        for (int i = 0; i < 2; i++) {
            engines.add(EngineProcess.start(ROOT, dir, FreePort.loopback(), FreePort.loopback(), Duration.ofSeconds(180),
                    "--plan", plan.toString()));
        }
        for (EngineProcess e : engines) {
            assertTrue(e.output().matches("(?s).*stampede server: (plugins: added .*jpgc-tst|ready).*"), e.output());
        }
        String remote = engines.stream().map(EngineProcess::address).collect(Collectors.joining(","));
        Path out = dir.resolve("run");
        List<String> args = List.of("run", plan.toString(), "--out", out.toString(), "--no-dashboard", "--heap", "512m",
                "--remote", remote, "--whole-plan-per-engine", "-J", "duration=3");
        Path console = dir.resolve("run.out");
        int exit = StampedeCli.runToEnd(ROOT, dir, console, args);
        String output = Files.readString(console);
        assertEquals(0, exit, output);
        Jtl jtl = Jtl.read(out.resolve("results.jtl"));
        assertEquals(Set.of("dummy 8"), Set.copyOf(jtl.labels()), output);
        assertEquals(0, jtl.errors());
        Set<String> fromEngines = new TreeSet<>();
        for (JtlRow r : jtl.rows()) {
            fromEngines.add(r.threadName().substring(0, r.threadName().indexOf('-')));
        }
        assertEquals(engines.stream().map(EngineProcess::address).collect(Collectors.toCollection(TreeSet::new)),
                fromEngines, "both engines ran the plan");
    }

    @Test
    void enginesWithoutThePluginsAreNamedWithTheClassEachLacks() throws Exception {
        Path plan = Plans.get("jpgc-plugins.jmx");
        Path bare = bareRoot();
        for (int i = 0; i < 2; i++) {
            engines.add(EngineProcess.start(bare, dir, FreePort.loopback(), FreePort.loopback(), Duration.ofSeconds(60)));
        }
        String remote = engines.stream().map(EngineProcess::address).collect(Collectors.joining(","));
        Path out = dir.resolve("run");
        Path console = dir.resolve("run.out");
        int exit = StampedeCli.runToEnd(ROOT, dir, console, List.of("run", plan.toString(), "--out", out.toString(),
                "--no-dashboard", "--heap", "512m", "--remote", remote, "--whole-plan-per-engine", "-J", "duration=3"));
        String output = Files.readString(console);
        assertEquals(4, exit, output);
        for (EngineProcess e : engines) {
            assertTrue(Pattern.compile("(?m)^  " + Pattern.quote(e.address())
                    + "  kg\\.apc\\.jmeter\\.[\\w.]+  provided by kg\\.apc:jmeter-plugins-(dummy|tst|functions):[\\d.]+"
                    + " \\(plugin jpgc-(dummy|tst|functions)\\)$").matcher(output).find(), output);
        }
        assertTrue(output.contains("`stampede server --plan " + plan + "`"), output);
        assertFalse(output.contains("Last lines of jmeter.out"), "no generic JMeter failure dump: " + output);
        Path jtl = out.resolve("results.jtl");
        assertTrue(!Files.exists(jtl) || Jtl.read(jtl).rows().isEmpty(), "nothing ran");
    }

    /**
     * A Stampede root whose JMeter home is the build's, under another path: its plugin cache ({@code
     * <home>-plugins}) is empty, so its engines lack what other tests and the controller's run added to the build's.
     */
    private Path bareRoot() throws Exception {
        Path target = Files.createDirectories(dir.resolve("bare/src/target"));
        Files.createSymbolicLink(target.resolve("stampede.jar"), ROOT.resolve("src/target/stampede.jar"));
        Files.createSymbolicLink(target.resolve("jmeter-home"), ROOT.resolve("src/target/jmeter-home"));
        return dir.resolve("bare");
    }
}
