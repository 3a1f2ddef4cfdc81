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
import io.stampede.it.support.ProcessTrees;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 33, finding 7: a controller that stops answering (SIGSTOP, as a stalled or swapped-out machine) neither
 * hangs the engines nor loses samples unseen. The engine's sampling threads wait for room in its sender's queue
 * a bounded time, then drop and count; once the controller runs again the engine finishes its plan, and the
 * summary states, per engine, how many samples were sent, dropped and unconfirmed (calls the controller did not
 * answer within RMI's 30 s response timeout): the JTL holds the sent ones and at most the unconfirmed ones more.
 * The pause lasts {@code -Dstampede.it.pause.seconds} (default 12; the figure is 120). The engine samples as
 * fast as it can, unless {@code -Dstampede.it.pause.rate} gives samples per second (the figure is 5,000).
 */
class ControllerPauseIT {

    private static final Path ROOT = JMeterHome.stampedeRoot();
    private static final int PAUSE_SECONDS = Integer.getInteger("stampede.it.pause.seconds", 12);
    private static final int RATE = Integer.getInteger("stampede.it.pause.rate", 0);
    private static final int THREADS = 20;
    private static final Pattern SAMPLING = Pattern.compile("\\d samples ");

    @TempDir
    Path dir;

    /** The quickstart plan, or a copy whose sampler holds the engine to RATE samples/s in all. */
    private Path plan() throws java.io.IOException {
        Path quickstart = ROOT.resolve("plans/quickstart.jmx");
        if (RATE <= 0) {
            return quickstart;
        }
        String xml = Files.readString(quickstart);
        String sampler = "testclass=\"io.stampede.sampler.HttpSampler\"";
        int at = xml.indexOf('>', xml.indexOf(sampler)) + 1;
        assertTrue(at > 0, "quickstart.jmx has a Stampede HTTP sampler");
        Path paced = dir.resolve("quickstart-paced.jmx");
        Files.writeString(paced, xml.substring(0, at) + "\n<stringProp name=\"stampede.target_rate\">"
                + (RATE / (double) THREADS) + "</stringProp>" + xml.substring(at));
        return paced;
    }

    @Test
    void enginesFinishAndTheSummaryCountsWhatWasDropped() throws Exception {
        try (EngineProcess engine = EngineProcess.start(ROOT, dir, FreePort.loopback(), FreePort.loopback(),
                Duration.ofSeconds(120))) {
            Path console = dir.resolve("run.out");
            int duration = PAUSE_SECONDS + 12;
            Process run = new ProcessBuilder(StampedeCli.command(ROOT, "run", plan().toString(),
                    "--out", dir.resolve("run").toString(), "--no-dashboard", "--heap", "512m",
                    "--remote", engine.address(), "--progress-every", "1", "-J", "threads=" + THREADS, "-J",
                    "duration=" + duration, "-J", "rampup=0",
                    // a small queue, so that the pause fills it at this test's rate as 100,000 fill at 5,000/s
                    "-J", "stampede.sender.queue_size=300", "-J", "stampede.sender.batch_size=100",
                    "-J", "stampede.sender.linger_ms=200", "-J", "stampede.sender.queue_wait_ms=200"))
                    .directory(dir.toFile()).redirectErrorStream(true).redirectOutput(console.toFile()).start();
            try {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
                while (!SAMPLING.matcher(Files.readString(console)).find()) {
                    assertTrue(run.isAlive() && System.nanoTime() < deadline, Files.readString(console));
                    Thread.sleep(300);
                }
                Thread.sleep(3_000);
                List<ProcessHandle> controller = run.descendants()
                        .filter(h -> h.info().command().orElse("").endsWith("java")).toList();
                assertEquals(1, controller.size(), "one JMeter controller under the CLI: " + controller);
                assertTrue(ProcessTrees.signal("STOP", controller));
                try {
                    Thread.sleep(TimeUnit.SECONDS.toMillis(PAUSE_SECONDS));
                } finally {
                    assertTrue(ProcessTrees.signal("CONT", controller));
                }
                assertTrue(run.waitFor(duration + 180L, TimeUnit.SECONDS), "the run ended:\n" + Files.readString(console));
                String out = Files.readString(console);
                assertEquals(0, run.exitValue(), out);
                Matcher m = Pattern.compile("engine " + Pattern.quote(engine.address())
                        + " samples: (\\d+) sent, (\\d+) dropped(?:, (\\d+) unconfirmed)?").matcher(out);
                assertTrue(m.find(), "the summary counts the engine's samples:\n" + out);
                long sent = Long.parseLong(m.group(1));
                long dropped = Long.parseLong(m.group(2));
                long unconfirmed = m.group(3) == null ? 0 : Long.parseLong(m.group(3));
                assertTrue(dropped > 0, "samples were dropped while the controller was stopped:\n" + out);
                // a call the stopped controller did not answer within RMI's 30 s went out whole: it is in the JTL
                // if the controller read it once running again, so the JTL holds sent plus some of those, no more
                long inJtl = Jtl.read(dir.resolve("run/results.jtl")).count();
                assertTrue(inJtl >= sent && inJtl <= sent + unconfirmed, "the JTL holds " + inJtl + " samples; the"
                        + " engine sent " + sent + ", " + unconfirmed + " unconfirmed:\n" + out);
                System.out.printf("controller stopped %d s in a %d s run: engine sent %d, dropped %d, unconfirmed %d;"
                        + " %d in the JTL (%.0f samples/s taken)%n", PAUSE_SECONDS, duration, sent, dropped,
                        unconfirmed, inJtl, (sent + dropped + unconfirmed) / (double) duration);
            } finally {
                ProcessTrees.kill(run);
            }
        }
    }
}
