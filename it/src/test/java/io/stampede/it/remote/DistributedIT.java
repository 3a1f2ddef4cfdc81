/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.it.support.FreePort;
import io.stampede.it.support.JMeterHome;
import io.stampede.it.support.Jtl;
import io.stampede.it.support.JtlRow;
import io.stampede.it.support.NginxServer;
import io.stampede.it.support.Plans;
import io.stampede.it.support.ShopSite;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * JMeter's distributed mode with Stampede's samplers: two `stampede server` engines on loopback (each with its own
 * registry and engine-object port) and one controller, `stampede run --remote`. The merged JTL must hold every
 * engine's samples, named after the engine, with no errors, all of them sent back by Stampede's compact sample
 * sender before the engine reported its end, and no engine process may outlive the test.
 */
class DistributedIT {

    private static final Path ROOT = JMeterHome.stampedeRoot();
    private static final int THREADS = 2;
    private static final int LOOPS = 150;

    private final List<EngineProcess> engines = new ArrayList<>();
    private final List<ProcessHandle> processes = new ArrayList<>();
    private NginxServer nginx;

    @TempDir
    Path dir;

    @AfterEach
    void stopEverything() {
        engines.forEach(EngineProcess::close);
        if (nginx != null) {
            nginx.close();
        }
        List<ProcessHandle> alive = processes.stream().filter(ProcessHandle::isAlive).toList();
        assertEquals(List.of(), alive, "engine processes still alive after SIGKILL");
    }

    @Test
    void twoEnginesOneControllerBothSamplers() throws Exception {
        for (int i = 0; i < 2; i++) {
            engines.add(EngineProcess.start(ROOT, dir, FreePort.loopback(), FreePort.loopback(), Duration.ofSeconds(120)));
        }
        engines.forEach(e -> processes.addAll(e.processes()));
        assertEquals(4, processes.size(), "each engine is a CLI with one JMeter child: " + processes);
        String remote = engines.stream().map(EngineProcess::address).collect(Collectors.joining(","));

        // 1. The built-in target (127.0.0.1) serves engines on loopback; the engines stay up after the run.
        Run builtIn = run(ROOT.resolve("plans/quickstart.jmx"), "builtin", "--remote", remote,
                "-J", "threads=2", "-J", "duration=4", "-J", "rampup=0");
        assertEquals(0, builtIn.exit, builtIn.output);
        Map<String, Integer> perEngine = samplesPerEngine(builtIn.jtl());
        // --remote divides the plan: each engine runs its share and names its threads by it, as --share does
        assertEquals(shareNames(), perEngine.keySet(), "samples from every engine: " + perEngine);
        assertEquals(0, builtIn.jtl().errors(), builtIn.output);
        assertTrue(engines.stream().allMatch(e -> e.processes().stream().allMatch(ProcessHandle::isAlive)),
                "engines keep serving after a run without --remote-exit");
        // each engine's injector monitor sent its own series to the controller: one file and one verdict each
        for (String engine : engineNames()) {
            assertTrue(builtIn.output.matches("(?s).*  engine " + java.util.regex.Pattern.quote(engine)
                    + " injector: CPU JMeter [\\d.]+, machine .*"), engine + "\n" + builtIn.output);
            List<String> rows = Files.readAllLines(dir.resolve("builtin")
                    .resolve("injector-" + engine.replace(':', '_') + ".csv"));
            assertTrue(rows.size() >= 3 && rows.get(1).startsWith("0,"), engine + ": " + rows);
        }

        // 1b. An unchanged stock plan on the Stampede engine (issue 14): the controller loads it switched and sends
        // the engines EngineHttpRequest elements, which they run with the CSV, extractor, cookies and assertions.
        // As with stock JMeter, each engine reads the plan's CSV file from its own folder (the engines' working
        // directory here), not from the controller's plan folder.
        Files.copy(ROOT.resolve("plans/recorded-shop-users.csv"), dir.resolve("recorded-shop-users.csv"));
        try (NginxServer shop = NginxServer.start(ShopSite.nginx())) {
            Run switched = run(ROOT.resolve("plans/recorded-shop.jmx"), "shop", "--remote", remote,
                    "--engine", "stampede", "--host", "127.0.0.1", "--port", Integer.toString(shop.port()),
                    "-J", "threads=2", "-J", "duration=4", "-J", "rampup=0");
            assertEquals(0, switched.exit, switched.output);
            assertTrue(switched.output.contains("engine stampede: 3 HTTP Requests of recorded-shop.jmx run on Netty"
                    + " engine"), switched.output);
            assertTrue(Files.readString(dir.resolve("shop/jmeter.log")).contains("Upgrading class org.apache.jmeter"
                    + ".protocol.http.sampler.HTTPSamplerProxy to io.stampede.httprequest.EngineHttpRequest"));
            assertEquals(shareNames(), samplesPerEngine(switched.jtl()).keySet(), "both engines ran the plan");
            assertEquals(0, switched.jtl().errors(), "every sample passed the plan's assertions");
            assertEquals(3, switched.jtl().labels().size());
        }

        // 2. Real nginx, both samplers, exact counts; --remote-exit ends the engines with the run. JMeter's way, every
        // engine running the whole plan, so each engine's count is the plan's (RemoteSharesIT covers the shares).
        nginx = NginxServer.start(NginxServer.Options.defaults());
        Run both = run(Plans.get("distributed-both.jmx"), "nginx", "--remote", remote, "--remote-exit",
                "--whole-plan-per-engine",
                "--host", "127.0.0.1", "--port", Integer.toString(nginx.port()),
                "-J", "threads=" + THREADS, "-J", "loops=" + LOOPS);
        assertEquals(0, both.exit, both.output);
        assertTrue(both.output.contains("distributed over 2 engines"), both.output);
        assertTrue(both.output.contains("errors     0 (0.000%)"), both.output);
        Jtl jtl = both.jtl();
        assertEquals(0, jtl.errors(), "no failed samples");
        assertEquals(Set.of("200"), jtl.statusCodes());
        int perEngineExpected = THREADS * LOOPS * 2;
        Map<String, Integer> counts = samplesPerEngine(jtl);
        Map<String, Integer> expected = new TreeMap<>();
        engineNames().forEach(n -> expected.put(n, perEngineExpected));
        assertEquals(expected, counts, "every engine ran the whole plan, and all its samples came back");
        assertTrue(Files.readString(dir.resolve("nginx").resolve("jmeter.log"))
                .contains("Using Stampede's compact sample sender"), "stampede run's default sender was used");
        for (String engine : engineNames()) {
            Jtl mine = jtl.filter(r -> r.threadName().startsWith(engine + "-"));
            assertEquals(THREADS * LOOPS, mine.count("HTTP GET /test.txt"), engine);
            assertEquals(THREADS * LOOPS, mine.count("RAW GET /test.txt"), engine);
        }
        assertTrue(jtl.rows().stream().allMatch(r -> r.bytes() > NginxServer.TEST_TXT.length()), "whole responses");

        for (EngineProcess e : engines) {
            assertTrue(e.awaitExit(Duration.ofSeconds(60)), "--remote-exit stops the engine:\n" + e.output());
            assertEquals(0, e.exitValue(), e.output());
            assertTrue(e.output().contains("the engine exited"), e.output());
        }
        for (ProcessHandle h : processes) {
            h.onExit().get(30, TimeUnit.SECONDS);
        }
        assertTrue(processes.stream().noneMatch(ProcessHandle::isAlive), "every engine process is gone");
    }

    /** The engines' thread-name prefixes when --remote divides the plan: i1of2, i2of2, ... */
    private Set<String> shareNames() {
        Set<String> names = new TreeSet<>();
        for (int i = 1; i <= engines.size(); i++) {
            names.add("i" + i + "of" + engines.size());
        }
        return names;
    }

    private Set<String> engineNames() {
        return engines.stream().map(EngineProcess::address).collect(Collectors.toCollection(java.util.TreeSet::new));
    }

    /** JMeter names remote threads "host:port-group n-m" (property __jm.D_TG set by the engine). */
    private static Map<String, Integer> samplesPerEngine(Jtl jtl) {
        Map<String, Integer> counts = new TreeMap<>();
        for (JtlRow r : jtl.rows()) {
            String name = r.threadName();
            int dash = name.indexOf('-');
            counts.merge(dash < 0 ? name : name.substring(0, dash), 1, Integer::sum);
        }
        return counts;
    }

    private Run run(Path plan, String name, String... options) throws Exception {
        Path out = dir.resolve(name);
        List<String> args = new ArrayList<>(List.of("run", plan.toString(), "--out", out.toString(),
                "--no-dashboard", "--heap", "512m"));
        args.addAll(List.of(options));
        Path console = dir.resolve(name + ".out");
        int exit = StampedeCli.runToEnd(ROOT, dir, console, args);
        return new Run(exit, Files.readString(console), out.resolve("results.jtl"));
    }

    private record Run(int exit, String output, Path jtlFile) {
        Jtl jtl() {
            return Jtl.read(jtlFile);
        }
    }
}
