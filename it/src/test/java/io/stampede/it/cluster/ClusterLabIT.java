/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** cluster lab on both examples: every applicable check passes and nothing named stl* is left behind. */
class ClusterLabIT {

    @BeforeEach
    void needsRoot() {
        assumeTrue("root".equals(System.getProperty("user.name")), "the lab needs root (network namespaces)");
    }

    @AfterEach
    void nothingLeft() throws Exception {
        assertEquals("", stlNamespaces(), "the lab removes every namespace it made");
        assertFalse(ProcessHandle.allProcesses().anyMatch(p -> p.info().commandLine().orElse("").contains("stl-lab-")),
                "no nginx, keepalived or haproxy of the lab is left running");
    }

    static String stlNamespaces() throws IOException, InterruptedException {
        Process p = new ProcessBuilder("ip", "netns", "list").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        p.waitFor(10, TimeUnit.SECONDS);
        return out.lines().filter(l -> l.startsWith("stl")).reduce("", (a, b) -> a + b + "\n");
    }

    @Test
    void lvsDirectRoutingExamplePassesChecksOneToFourAndSix() throws Exception {
        StampedeJar.Result r = StampedeJar.run(120, "cluster", "lab", "lvs/example/cluster.yaml");
        assertEquals(0, r.exitCode(), r.output());
        for (int check : new int[] {1, 2, 3, 4, 6}) {
            assertTrue(r.output().contains("check " + check + " PASS"), "check " + check + "\n" + r.output());
        }
        assertTrue(r.output().contains("check 5 SKIP"));
        assertTrue(r.output().contains("check 7 SKIP"));
        assertTrue(r.output().contains("lab: 5 passed, 0 failed"), r.output());
    }

    @Test
    void haproxyExamplePassesChecksOneFiveSixAndSeven() throws Exception {
        StampedeJar.Result r = StampedeJar.run(120, "cluster", "lab", "haproxy/example/cluster.yaml");
        assertEquals(0, r.exitCode(), r.output());
        for (int check : new int[] {1, 5, 6, 7}) {
            assertTrue(r.output().contains("check " + check + " PASS"), "check " + check + "\n" + r.output());
        }
        // check 7: the blocking time is measured on every realserver (the +5 ms netem half needs sch_netem)
        for (String web : new String[] {"web1", "web2", "web3"}) {
            assertTrue(r.output().matches("(?s).*  " + web + ": \\d+ requests, blocking p50 .*"), web + "\n" + r.output());
        }
        assertTrue(r.output().contains("lab: 4 passed, 0 failed"), r.output());
    }

    @Test
    void anInterruptedLabRemovesEverything() throws Exception {
        Path log = Files.createTempFile("stampede-lab-", ".log");
        try {
            Process p = StampedeJar.builder(log, "cluster", "lab", "lvs/example/cluster.yaml").start();
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!Files.readString(log).contains("VRRP MASTER") && p.isAlive() && System.nanoTime() < end) {
                Thread.sleep(200);
            }
            assertTrue(Files.readString(log).contains("VRRP MASTER"), Files.readString(log));
            assertFalse(stlNamespaces().isEmpty(), "the cluster is up when the interrupt comes");
            p.destroy(); // SIGTERM: the same shutdown hook as Ctrl-C
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the lab exits after an interrupt");
            String out = Files.readString(log);
            System.out.println(out);
            assertTrue(out.contains("lab: cleaned up (no stl namespace, no lab process left)"), out);
        } finally {
            Files.deleteIfExists(log);
        }
    }
}
