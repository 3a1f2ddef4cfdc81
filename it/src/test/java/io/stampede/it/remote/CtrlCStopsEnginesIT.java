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
import io.stampede.it.support.ProcessTrees;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 33, finding 8: Ctrl-C in the terminal of `stampede run --remote` stops the engines. A terminal sends
 * SIGINT to the whole foreground process group; the run is started as a terminal starts it, leading a process
 * group of its own with SIGINT at its default, and the signal goes to that group. JMeter's controller used to die
 * with the group before the CLI could ask it to stop the engines, which then ran the plan to its end.
 */
class CtrlCStopsEnginesIT {

    private static final Path ROOT = JMeterHome.stampedeRoot();
    private static final Pattern SAMPLING = Pattern.compile("\\d samples ");
    /** A session leader with SIGINT at its default, as a shell gives a foreground job. */
    private static final String AS_A_TERMINAL_STARTS_IT = "import os, signal, sys\n"
            + "signal.signal(signal.SIGINT, signal.SIG_DFL)\nos.setsid()\nos.execvp(sys.argv[1], sys.argv[1:])\n";

    @TempDir
    Path dir;

    @Test
    void ctrlCToTheProcessGroupStopsTheEngines() throws Exception {
        try (EngineProcess engine = EngineProcess.start(ROOT, dir, FreePort.loopback(), FreePort.loopback(),
                Duration.ofSeconds(120))) {
            Path console = dir.resolve("run.out");
            List<String> cmd = new ArrayList<>(List.of("/usr/bin/python3", "-c", AS_A_TERMINAL_STARTS_IT));
            cmd.addAll(StampedeCli.command(ROOT, "run", ROOT.resolve("plans/quickstart.jmx").toString(), "--out",
                    dir.resolve("run").toString(), "--no-dashboard", "--heap", "512m", "--remote", engine.address(),
                    "--progress-every", "1", "-J", "threads=2", "-J", "duration=120", "-J", "rampup=0"));
            Process run = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(console.toFile()).start();
            List<ProcessHandle> tree = new ArrayList<>();
            try {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
                while (!SAMPLING.matcher(Files.readString(console)).find()) {
                    assertTrue(run.isAlive() && System.nanoTime() < deadline, Files.readString(console));
                    Thread.sleep(300);
                }
                tree.add(run.toHandle());
                run.descendants().forEach(tree::add);
                Process kill = new ProcessBuilder("kill", "-INT", "--", "-" + run.pid()).inheritIO().start();
                assertEquals(0, kill.waitFor(), "kill -INT to the process group " + run.pid());

                Path engineLog = dir.resolve(engine.address().replaceFirst(".*:", "engine-") + ".log");
                long stopDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(40);
                while (!Files.readString(engineLog).contains("Stopping test")) {
                    assertTrue(System.nanoTime() < stopDeadline, "the engine was not asked to stop within 40 s of"
                            + " Ctrl-C (the plan runs 120 s):\n" + Files.readString(console));
                    Thread.sleep(300);
                }
                for (ProcessHandle h : tree) {
                    h.onExit().get(40, TimeUnit.SECONDS);
                }
                assertTrue(Files.readString(console).contains("stopping JMeter and the engines"), Files.readString(console));
            } finally {
                ProcessTrees.kill(run);
                tree.forEach(ProcessHandle::destroyForcibly);
            }
        }
    }
}
