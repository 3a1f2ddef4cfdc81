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
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * cluster lab --vm and validate --vm: Debian's kernel under qemu with the real IPVS, keepalived and ipvsadm. The
 * first test builds the guest when the cache has none (a fresh CI machine: a few minutes), the others reuse it.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class VmLabIT {

    @BeforeEach
    void needsRootAndQemu() {
        assumeTrue("root".equals(System.getProperty("user.name")), "the VM lab builds its guest as root");
    }

    @AfterEach
    void nothingLeft() throws IOException {
        assertFalse(ProcessHandle.allProcesses().anyMatch(p -> p.info().commandLine().orElse("")
                .contains("qemu-system")), "no qemu left running");
        try (Stream<Path> s = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            List<Path> left = s.filter(p -> p.getFileName().toString().startsWith("stl-vm-")).toList();
            assertEquals(List.of(), left, "no run folder or initramfs left behind");
        }
        try (Stream<Path> s = Files.list(Path.of("/var/tmp"))) {
            assertEquals(List.of(), s.filter(p -> p.getFileName().toString().startsWith("vl.")).toList(),
                    "no qemu snapshot overlay left behind");
        }
    }

    @Test
    @Order(1)
    void realKernelChecksPassWithTheirNumbers() throws Exception {
        StampedeJar.Result r = StampedeJar.run(1800, "cluster", "lab", "lvs/example-vm/cluster.yaml", "--vm");
        String out = r.output();
        assertEquals(0, r.exitCode(), out);
        for (String check : List.of("a", "b", "c", "d", "e", "f")) {
            assertTrue(out.contains("check " + check + " PASS"), "check " + check + "\n" + out);
        }
        assertTrue(out.contains("lab --vm: 6 passed, 0 failed, 0 not applicable"), out);
        assertTrue(out.contains("lvs1 identical (1 service, 2 realservers); lvs2 identical"), out);
        // c: wrr 3:1 measured within 10 points
        Matcher share = Pattern.compile("web1 weight 3: (\\d+) = ([\\d.]+) %").matcher(out);
        assertTrue(share.find(), out);
        assertTrue(Math.abs(Double.parseDouble(share.group(2)) - 75.0) <= 10, share.group());
        // d: keepalived's retry is fall-1, so exactly fall failed checks
        assertTrue(out.contains("= 3 failed checks (fall 3)"), out);
        // e: kept with the sync daemon, lost without
        Matcher e = Pattern.compile("with lvs_sync_daemon: .*?second request on the same connection: (\\S+).*"
                + "WITHOUT: .*?did not know the connection.*second request on the same connection: (.*)").matcher(out);
        assertTrue(e.find(), out);
        assertEquals("200", e.group(1));
        assertFalse(e.group(2).startsWith("200"), e.group(2));
        assertTrue(out.contains("VIP answers 'sorry'"), out);
    }

    @Test
    @Order(2)
    void validateVmRunsTheRealToolsAndCatchesABadScheduler(@org.junit.jupiter.api.io.TempDir Path tmp)
            throws Exception {
        Path tree = tmp.resolve("rendered");
        StampedeJar.copyTree(StampedeJar.root().resolve("lvs/example-vm/rendered"), tree);
        StampedeJar.Result good = StampedeJar.run(300, "cluster", "validate", tree.toString(), "--vm");
        assertEquals(0, good.exitCode(), good.output());
        assertTrue(good.output().contains("OK      director/lvs1/ipvsadm.rules  [real ipvsadm-restore in the VM"),
                good.output());
        assertTrue(good.output().contains("OK      director/lvs2/ipvsadm.rules  [real ipvsadm -R in the VM]"),
                good.output());

        Path rules = tree.resolve("director/lvs2/ipvsadm.rules");
        Files.writeString(rules, Files.readString(rules).replace(" -s wrr", " -s fastest"));
        StampedeJar.Result bad = StampedeJar.run(300, "cluster", "validate", tree.toString(), "--vm");
        assertEquals(1, bad.exitCode(), bad.output());
        assertTrue(bad.output().contains("FAIL    director/lvs2/ipvsadm.rules  [real ipvsadm-restore in the VM"),
                bad.output());
        assertTrue(bad.output().contains("Scheduler or persistence engine not found"), bad.output());
        assertTrue(bad.output().contains("OK      director/lvs1/ipvsadm.rules  [real ipvsadm -R in the VM]"),
                "the untouched file still loads:\n" + bad.output());
    }

    @Test
    @Order(3)
    void anInterruptedVmLabLeavesNothing() throws Exception {
        Path log = Files.createTempFile("stampede-vm-", ".log");
        try {
            Process p = StampedeJar.builder(log, "cluster", "lab", "lvs/example-vm/cluster.yaml", "--vm").start();
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(300);
            while (!Files.readString(log).contains("vm: UP ") && p.isAlive() && System.nanoTime() < end) {
                Thread.sleep(200);
            }
            assertTrue(Files.readString(log).contains("vm: UP "), Files.readString(log));
            assertTrue(ProcessHandle.allProcesses().anyMatch(h -> h.info().commandLine().orElse("")
                    .contains("qemu-system")), "qemu runs when the interrupt comes");
            p.destroy(); // SIGTERM: the same shutdown hooks as Ctrl-C
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the lab exits after an interrupt");
            System.out.println(Files.readString(log));
        } finally {
            Files.deleteIfExists(log);
        }
    }

    @Test
    @Order(4)
    void haproxyExampleRunsCheckSevenWithNetemOnDebiansKernel() throws Exception {
        StampedeJar.Result r = StampedeJar.run(600, "cluster", "lab", "haproxy/example/cluster.yaml", "--vm");
        String out = r.output();
        assertEquals(0, r.exitCode(), out);
        assertTrue(out.contains("check 7 PASS"), out);
        assertTrue(out.contains("lab --vm: 1 passed, 0 failed, 0 not applicable"), out);
        assertTrue(out.contains("root netem delay 5ms"), "tc's own account of the qdisc\n" + out);
        // the figures: every realserver before and after, the slow one (web3, the last) +4..+7 ms, others ±2 ms
        for (String web : List.of("web1", "web2")) {
            Matcher m = Pattern.compile(web + ": p50 [\\d.]+ -> [\\d.]+ ms, ([+-][\\d.]+) ms \\(not delayed").matcher(out);
            assertTrue(m.find(), web + "\n" + out);
            assertTrue(Math.abs(Double.parseDouble(m.group(1))) <= 2, m.group());
        }
        Matcher slow = Pattern.compile("web3: p50 [\\d.]+ -> [\\d.]+ ms, \\+([\\d.]+) ms \\(delayed").matcher(out);
        assertTrue(slow.find(), out);
        double delta = Double.parseDouble(slow.group(1));
        assertTrue(delta >= 4 && delta <= 7, slow.group());
    }
}
