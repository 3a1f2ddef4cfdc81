/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.net.httpserver.HttpServer;
import io.stampede.cluster.model.Haproxy;
import io.stampede.cluster.model.Host;
import io.stampede.cluster.model.Ipv4;
import io.stampede.cluster.model.Tls;
import io.stampede.cluster.model.Vrrp;
import io.stampede.cluster.render.Layout;
import io.stampede.cluster.sys.Exec;
import io.stampede.cluster.sys.ExecResult;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the lab writes as root stays in its folder, readable by root only, and no secret reaches a command line. */
class LabSecurityTest {

    @TempDir
    Path tmp;

    @Test
    void aTlsPathClimbingOutOfTheLabRootWritesNothingOutside() throws IOException {
        Path outside = tmp.resolve("x.pem");
        Path root = tmp.resolve("lab/web1");
        Deployer d = new Deployer("web1", new Layout(root.toString()), List.of(), new LabProcesses());
        // a Tls the reader would refuse, handed straight to the lab: its own check must hold as well
        Tls climbing = new Tls("/../../.." + outside, "/../../.." + outside, List.of(443));
        LabException e = assertThrows(LabException.class, () -> d.installTlsStandIn(climbing));
        assertTrue(e.getMessage().contains("leads outside the lab folder"), e.getMessage());
        assertFalse(Files.exists(outside));
        assertFalse(Files.exists(tmp.resolve("lab")), "nothing was written at all");
    }

    @Test
    void theStandInKeyIsReadableByItsOwnerOnly() throws IOException, LabException {
        assumeTrue(Exec.available("openssl"), "openssl makes the stand-in");
        Path root = tmp.resolve("lab/web1");
        Deployer d = new Deployer("web1", new Layout(root.toString()), List.of(), new LabProcesses());
        d.installTlsStandIn(new Tls("/etc/ssl/site.pem", "/etc/ssl/site.key", List.of(443)));
        for (String p : List.of("etc/ssl/site.pem", "etc/ssl/site.key")) {
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(root.resolve(p))), p);
        }
    }

    @Test
    void theLabFolderIsClosedToEveryoneButNginxWorkersPassingThrough() throws IOException {
        Path dir = LabFolder.create();
        try {
            String mode = PosixFilePermissions.toString(Files.getPosixFilePermissions(dir));
            assertTrue(mode.equals("rwx--x---") || mode.equals("rwx------"), mode);
            Path secret = dir.resolve("haproxy.cfg");
            LabFolder.writeSecret(secret, "stats auth admin:password1\n");
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(secret)));
        } finally {
            Files.deleteIfExists(dir.resolve("haproxy.cfg"));
            Files.delete(dir);
        }
    }

    @Test
    void theStatsPasswordReachesHaproxyThroughStdinNeverTheCommandLine() throws Exception {
        assumeTrue(Exec.available("curl"), "curl asks the stats page");
        String auth = "admin:s3cret-pass";
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        List<String> seen = new ArrayList<>();
        server.createContext("/stats", ex -> {
            seen.add(ex.getRequestHeaders().getFirst("Authorization"));
            byte[] body = "pxname,svname\n".getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(200, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        server.start();
        try {
            Host node = new Host("ha1", Ipv4.parse("10.0.0.5"));
            Haproxy ha = new Haproxy(new Vrrp("eth0", 52, node, null, 1, 0), 2, 9000, 2000, "roundrobin", "safe",
                    server.getAddress().getPort(), false, auth, false);
            LabCluster.StatsQuery q = LabCluster.StatsQuery.of(ha, node);
            assertFalse(String.join(" ", q.command()).contains("s3cret"), q.command().toString());
            ExecResult r = Exec.run(Duration.ofSeconds(10), q.command(), q.config());
            assertEquals("pxname,svname\n", r.stdout(), r.output());
            assertEquals(List.of("Basic " + Base64.getEncoder().encodeToString(auth.getBytes(StandardCharsets.UTF_8))),
                    seen);
        } finally {
            server.stop(0);
        }
    }

    @Test
    void aSecondLabOnTheMachineIsRefusedWhileTheFirstHoldsTheLock() throws LabException {
        Path file = tmp.resolve("lab.lock");
        LabLock first = LabLock.take(file);
        try {
            LabException e = assertThrows(LabException.class, () -> LabLock.take(file));
            assertTrue(e.getMessage().contains("another cluster lab is running on this machine (pid "
                    + ProcessHandle.current().pid()) && e.getMessage().contains("Wait for it to end"), e.getMessage());
        } finally {
            first.close();
        }
        LabLock.take(file).close();
    }
}
