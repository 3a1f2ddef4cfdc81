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
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 33, finding 2, at the live level: during a real `stampede run --remote`, a thread of the engine takes the
 * controller's result-listener stub (the one JMeter hands the engine's sample sender) and calls it with batches no
 * engine sends: one holding a JDK class outside the controller's serial filter, one nested 200 lists deep. The
 * controller refuses both (the filter's REJECTED comes back to the caller) yet takes an ordinary empty batch, and
 * the run goes on: the load's samples after the crafted calls are in the JTL, the engine dropped none, and the
 * run ends with exit 0. The plan, it/src/test/resources/plans/crafted-batches.jmx, says what the thread does.
 */
class RemoteListenerFilterIT {

    private static final Path ROOT = JMeterHome.stampedeRoot();
    private static final String LOAD = "GET /test.txt";

    @TempDir
    Path dir;

    @Test
    void craftedBatchesAreRefusedAndTheRunGoesOn() throws Exception {
        Path plan = Path.of(getClass().getResource("/plans/crafted-batches.jmx").toURI());
        // --plan: the engine checks the plan's classes (the JSR223 sampler's among them), as a user's engine would
        try (EngineProcess engine = EngineProcess.start(ROOT, dir, FreePort.loopback(), FreePort.loopback(),
                Duration.ofSeconds(120), "--plan", plan.toString())) {
            Path console = dir.resolve("run.out");
            // 20 s: the crafting thread waits 3 s, then its JSR223 sampler starts Groovy (seconds of CPU on a busy
            // machine, in a JMeter that no longer starts it for the injector monitor) before its calls; the load
            // must go on for more than a second after them.
            int exit = StampedeCli.runToEnd(ROOT, dir, console, List.of("run", plan.toString(), "--out",
                    dir.resolve("run").toString(), "--no-dashboard", "--heap", "512m", "--remote", engine.address(),
                    "-J", "threads=2", "-J", "duration=20", "-J", "rampup=0"));
            String out = java.nio.file.Files.readString(console);
            assertEquals(0, exit, out);

            Jtl jtl = Jtl.read(dir.resolve("run/results.jtl"));
            List<JtlRow> crafted = jtl.label("crafted batches").rows();
            assertEquals(1, crafted.size(), "the crafting thread's sample came back: " + jtl.labels());
            JtlRow call = crafted.get(0);
            assertEquals("empty ACCEPTED / foreign REJECTED / deep REJECTED", call.responseMessage());
            assertTrue(call.success());
            long after = call.timeStamp() + call.elapsed();
            long later = jtl.label(LOAD).rows().stream().filter(r -> r.timeStamp() > after + 1000).count();
            assertTrue(later > 0, "the load's samples go on being recorded after the crafted batches");

            Matcher m = Pattern.compile("engine " + Pattern.quote(engine.address())
                    + " samples: (\\d+) sent, (\\d+) dropped").matcher(out);
            assertTrue(m.find(), "the summary counts the engine's samples:\n" + out);
            assertEquals(0, Long.parseLong(m.group(2)), "samples dropped:\n" + out);
            assertEquals(Long.parseLong(m.group(1)), jtl.count(), "every sample sent is in the JTL");
        }
    }
}
