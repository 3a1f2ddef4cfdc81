/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.vm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.cluster.Fixtures;
import io.stampede.cluster.model.ClusterSpec;
import io.stampede.cluster.validate.Verdict;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class VmLabTest {

    private static final String SORRY_SYNC = Fixtures.LVS.replace("directors:\n",
            "directors:\n  sorry_server: 10.0.0.20\n  sync_daemon: true\n");

    @Test
    void environmentCarriesWhatTheGuestMeasuresAgainst() {
        ClusterSpec spec = Fixtures.spec(SORRY_SYNC + "health_check: {interval: 2, fall: 3}\n");
        String env = VmLab.environment(spec, "lab");
        assertTrue(env.contains("MODE='lab'\n"), env);
        assertTrue(env.contains("VIP='10.0.0.100'\n"), env);
        assertTrue(env.contains("MASTER='lvs1'\nBACKUP='lvs2'\n"), env);
        assertTrue(env.contains("ADDR_web1='10.0.0.11'\n"), env);
        assertTrue(env.contains("SORRY='10.0.0.20'\n"), env);
        // removal within the first failed check (<= interval) plus fall-1 retries an interval apart, + 1 s
        assertTrue(env.contains("PROMISE_DOWN='7'\n"), env);
        assertTrue(env.contains("PROMISE_UP='5'\n"), env);
    }

    @Test
    void hostNamesWithDashesBecomeShellNames() {
        ClusterSpec spec = Fixtures.spec(Fixtures.LVS.replace("name: web1,", "name: web-1,"));
        assertTrue(VmLab.environment(spec, "lab").contains("ADDR_web_1='10.0.0.11'\n"));
    }

    @Test
    void theClientTakesTheHighestFreeAddress() {
        ClusterSpec spec = Fixtures.spec(SORRY_SYNC);
        assertEquals("10.0.0.254", VmLab.clientAddress(spec).toString());
        ClusterSpec taken = Fixtures.spec(SORRY_SYNC.replace("sorry_server: 10.0.0.20", "sorry_server: 10.0.0.254"));
        assertEquals("10.0.0.253", VmLab.clientAddress(taken).toString());
    }

    @Test
    void runFilesHoldInstalledHostsTheRenderedTreeAndBothSyncVariants(@TempDir Path tmp) throws IOException {
        ClusterSpec spec = Fixtures.spec(SORRY_SYNC);
        Path run = tmp.resolve("run");
        VmLab.prepare(spec, run);
        Path nginx = run.resolve("h/web1/etc/nginx/nginx.conf");
        assertTrue(Files.readString(nginx).contains(run.resolve("h/web1").toString()), "paths point into the run");
        assertEquals("web1", Files.readString(run.resolve("h/web1/var/www/stampede/index.html")));
        assertFalse(Files.readString(run.resolve("rendered/director/lvs1/ipvsadm.rules")).contains("#"));
        String sync = Files.readString(run.resolve("variants/sync/lvs1/keepalived.conf"));
        String nosync = Files.readString(run.resolve("variants/nosync/lvs1/keepalived.conf"));
        assertTrue(sync.contains("lvs_sync_daemon eth0 VI_WEB"));
        assertEquals(nosync, sync.replace("    lvs_sync_daemon eth0 VI_WEB\n", ""), "the variants differ in that line");
        assertTrue(Files.readString(run.resolve("run.env")).contains("MODE='lab'"));
    }

    @Test
    void cpioIsNewcWithParentsFirstAndATrailer(@TempDir Path tmp) throws IOException {
        Path dir = tmp.resolve("a");
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("f.txt"), "hello");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Cpio cpio = new Cpio(bytes);
        cpio.tree(dir);
        cpio.finish();
        String text = bytes.toString(StandardCharsets.ISO_8859_1);
        assertEquals(0, bytes.size() % 4);
        assertTrue(text.startsWith("070701"));
        String root = tmp.toString().substring(1).split("/")[0];
        assertTrue(text.indexOf(root + "\0") < text.indexOf("f.txt\0"), "parents come before their files");
        assertTrue(text.contains("f.txt\0"));
        assertTrue(text.contains("hello"));
        assertTrue(text.contains("TRAILER!!!\0"));
        // file entry: mode 0100644, size 5
        int at = text.indexOf("a/f.txt\0");
        String header = text.substring(text.lastIndexOf("070701", at), text.lastIndexOf("070701", at) + 110);
        assertEquals("000081a4", header.substring(14, 22));
        assertEquals("00000005", header.substring(54, 62));
    }

    @Test
    void twoRemoversAtOnceLeaveNothing(@TempDir Path tmp) throws Exception {
        // Ctrl-C: the shutdown hook and the run's own finally both remove the run folder at the same moment, and
        // the JVM halts as soon as the hook returns: so whichever returns, the folder must be gone by then
        for (int round = 0; round < 10; round++) {
            Path top = tmp.resolve("stl-vm-" + round);
            for (int d = 0; d < 40; d++) {
                Path dir = Files.createDirectories(top.resolve("run/h/d" + d + "/etc"));
                for (int f = 0; f < 20; f++) {
                    Files.writeString(dir.resolve("f" + f), "x");
                }
            }
            Thread other = new Thread(() -> GuestImage.deleteQuietly(top));
            other.start();
            // join in once the other has begun removing: its removals are what disturb a walk
            Path oneOfItsFiles = top.resolve("run/h/d9/etc/f9");
            long end = System.nanoTime() + 5_000_000_000L;
            while (Files.exists(oneOfItsFiles) && System.nanoTime() < end) {
                Thread.onSpinWait();
            }
            GuestImage.deleteQuietly(top);
            assertFalse(Files.exists(top), "round " + round + ": this remover returned before the folder was gone");
            other.join(10_000);
            assertFalse(Files.exists(top), "round " + round);
        }
    }

    @Test
    void recipeHashFollowsTheRecipe() {
        assertTrue(GuestImage.recipeHash().matches("[0-9a-f]{12}"));
        assertEquals(GuestImage.recipeHash(), GuestImage.recipeHash());
        assertTrue(GuestImage.folder(Path.of("/c")).toString().startsWith("/c/guest-"));
    }

    @Test
    void guestVerdictLinesBecomeVerdicts() {
        Verdict ok = VmValidation.verdict("director/lvs1/ipvsadm.rules|real ipvsadm -R in the VM|OK|loaded 1");
        assertEquals(Verdict.Status.OK, ok.status());
        assertEquals("director/lvs1/ipvsadm.rules", ok.file());
        Verdict bad = VmValidation.verdict("x.rules|real ipvsadm-restore|FAIL|exit 255: Scheduler not found");
        assertEquals(Verdict.Status.FAIL, bad.status());
        assertEquals("exit 255: Scheduler not found", bad.detail());
        assertEquals(Verdict.Status.FAIL, VmValidation.verdict("garbled").status());
    }
}
