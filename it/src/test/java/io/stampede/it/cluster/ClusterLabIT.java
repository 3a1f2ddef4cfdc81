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
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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

    /**
     * One lab is brought up and checked while it runs: its folder is closed to other users, and a second lab
     * started meanwhile is refused and leaves the first one's namespaces alone. Then the interrupt removes all.
     */
    @Test
    void aRunningLabIsPrivateAndAloneAndAnInterruptRemovesEverything() throws Exception {
        Path log = Files.createTempFile("stampede-lab-", ".log");
        Process p = null;
        try {
            p = StampedeJar.builder(log, "cluster", "lab", "lvs/example/cluster.yaml").start();
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!Files.readString(log).contains("VRRP MASTER") && p.isAlive() && System.nanoTime() < end) {
                Thread.sleep(200);
            }
            assertTrue(Files.readString(log).contains("VRRP MASTER"), Files.readString(log));
            String namespaces = stlNamespaces();
            assertFalse(namespaces.isEmpty(), "the cluster is up when the interrupt comes");
            Matcher folder = Pattern.compile("files under (\\S+)").matcher(Files.readString(log));
            assertTrue(folder.find(), Files.readString(log));
            Path dir = Path.of(folder.group(1));
            assertEquals("rwx--x---", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)),
                    "only root enters; nginx's workers (group www-data) may pass through to the document root");
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(
                    dir.resolve("lvs1/etc/keepalived/keepalived.conf"))));
            StampedeJar.Result second = StampedeJar.run(60, "cluster", "lab", "haproxy/example/cluster.yaml");
            assertEquals(6, second.exitCode(), second.output());
            assertTrue(second.output().contains("another cluster lab is running on this machine (pid "),
                    second.output());
            assertEquals(namespaces, stlNamespaces(), "the second lab left the first one's namespaces alone");
            assertTrue(p.isAlive(), "the first lab still runs");
            p.destroy(); // SIGTERM: the same shutdown hook as Ctrl-C
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the lab exits after an interrupt");
            String out = Files.readString(log);
            System.out.println(out);
            assertTrue(out.contains("lab: cleaned up (no stl namespace, no lab process left)"), out);
        } finally {
            if (p != null && p.isAlive()) {
                // a failed assertion above: the lab's own hook still removes what it made
                p.destroy();
                p.waitFor(60, TimeUnit.SECONDS);
            }
            Files.deleteIfExists(log);
        }
    }
}
