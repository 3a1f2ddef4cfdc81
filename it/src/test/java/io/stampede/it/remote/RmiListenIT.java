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
import io.stampede.it.support.ProcessTrees;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 33, finding 1: plain RMI listens only where it is told. An engine started with the default
 * {@code --bind 127.0.0.1}, and the controller of a run against it, are probed from a neighbour on the network
 * (a namespace on a veth pair): neither the engine's registry and engine object nor the controller's result
 * listener may accept a connection on this machine's non-loopback address. JMeter's own plain RMI listens on
 * every interface, so each of these connections succeeded before.
 */
class RmiListenIT {

    private static final Path ROOT = JMeterHome.stampedeRoot();
    private static final Pattern SAMPLING = Pattern.compile("\\d samples ");
    private static final Pattern LISTEN = Pattern.compile("^\\S+\\s+\\d+\\s+\\d+\\s+(\\S+):(\\d+)\\s");

    @TempDir
    Path dir;

    @Test
    void engineAndControllerListenOnTheBoundAddressOnly() throws Exception {
        int registry = FreePort.loopback();
        int object = FreePort.loopback();
        try (PeerNamespace peer = PeerNamespace.create();
             EngineProcess engine = EngineProcess.start(ROOT, dir, registry, object, Duration.ofSeconds(120))) {
            try (ServerSocket everywhere = new ServerSocket()) {
                everywhere.bind(new InetSocketAddress("0.0.0.0", 0));
                assertTrue(peer.connects(peer.hostAddress(), everywhere.getLocalPort()),
                        "the namespace reaches what listens on every interface: the probe works");
            }
            assertFalse(peer.connects(peer.hostAddress(), registry), "registry reachable from the network");
            assertFalse(peer.connects(peer.hostAddress(), object), "engine object reachable from the network");
            ProcessHandle jmeterEngine = engine.processes().get(engine.processes().size() - 1);
            List<String> engineSockets = listening(jmeterEngine.pid());
            assertTrue(engineSockets.contains("127.0.0.1:" + registry) || engineSockets.contains("[::ffff:127.0.0.1]:"
                    + registry), "the registry listens on loopback: " + engineSockets);
            // finding 13: nothing under a fixed name in the engine's current folder but the log (and console) asked for
            try (var files = Files.list(dir)) {
                List<String> names = files.map(f -> f.getFileName().toString()).sorted().toList();
                assertEquals(List.of("engine-" + registry + ".log", "engine-" + registry + ".out"), names,
                        "files written into the engine's current folder");
            }

            Path console = dir.resolve("run.out");
            Process run = new ProcessBuilder(StampedeCli.command(ROOT, "run", ROOT.resolve("plans/quickstart.jmx")
                    .toString(), "--out", dir.resolve("run").toString(), "--no-dashboard", "--heap", "512m",
                    "--remote", engine.address(), "--progress-every", "1", "-J", "threads=2", "-J", "duration=12",
                    "-J", "rampup=0"))
                    .directory(dir.toFile()).redirectErrorStream(true).redirectOutput(console.toFile()).start();
            try {
                List<Integer> listener = controllerListeners(run, console);
                for (int port : listener) {
                    assertFalse(peer.connects(peer.hostAddress(), port),
                            "the controller's result listener on port " + port + " is reachable from the network");
                }
                assertTrue(run.waitFor(120, TimeUnit.SECONDS), Files.readString(console));
                assertEquals(0, run.exitValue(), Files.readString(console));
            } finally {
                ProcessTrees.kill(run);
            }
        }
    }

    /** The TCP ports the JMeter controller under {@code run} listens on, once samples flow. */
    private static List<Integer> controllerListeners(Process run, Path console) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (System.nanoTime() < deadline && run.isAlive()) {
            for (ProcessHandle h : run.descendants().toList()) {
                if (h.info().command().orElse("").endsWith("java") && isSampling(console)) {
                    List<Integer> ports = new ArrayList<>();
                    for (String s : listening(h.pid())) {
                        ports.add(Integer.parseInt(s.substring(s.lastIndexOf(':') + 1)));
                    }
                    assertFalse(ports.isEmpty(), "the controller exports its result listener");
                    return ports;
                }
            }
            Thread.sleep(500);
        }
        throw new AssertionError("the controller did not start sampling:\n" + Files.readString(console));
    }

    private static boolean isSampling(Path console) throws IOException {
        return Files.exists(console) && SAMPLING.matcher(Files.readString(console)).find();
    }

    /** {@code ss -ltnp}: the local address:port of each TCP socket {@code pid} listens on. */
    private static List<String> listening(long pid) throws IOException, InterruptedException {
        Process ss = new ProcessBuilder("ss", "-ltnpH").redirectErrorStream(true).start();
        List<String> lines = new String(ss.getInputStream().readAllBytes()).lines()
                .filter(l -> l.contains("pid=" + pid + ",")).toList();
        ss.waitFor(10, TimeUnit.SECONDS);
        List<String> sockets = new ArrayList<>();
        for (String l : lines) {
            Matcher m = LISTEN.matcher(l);
            if (m.find()) {
                sockets.add(m.group(1) + ":" + m.group(2));
            }
        }
        return sockets;
    }
}
