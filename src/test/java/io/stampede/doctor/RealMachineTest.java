/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.doctor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/** The doctor against this machine's own /proc and real sockets. */
@EnabledOnOs(OS.LINUX)
class RealMachineTest {

    private static String sysctl(String key) throws Exception {
        Process p = new ProcessBuilder("sysctl", "-n", key).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertEquals(0, p.waitFor(), out);
        return out;
    }

    @Test
    void readsTheSameValuesAsSysctl() throws Exception {
        DoctorReport r = Doctor.forThisMachine().examine(Optional.empty(), PlannedLoad.unknown());
        String[] range = sysctl("net.ipv4.ip_local_port_range").split("\\s+");
        Check ports = r.checks().stream().filter(c -> c.id().equals("ports")).findFirst().orElseThrow();
        assertTrue(ports.value().startsWith(range[0] + "-" + range[1] + " = "), ports.value());
        Check reuse = r.checks().stream().filter(c -> c.id().equals("tw-reuse")).findFirst().orElseThrow();
        assertTrue(reuse.value().startsWith(sysctl("net.ipv4.tcp_tw_reuse") + " = "), reuse.value());
        assertTrue(r.context().get(0).startsWith("stampede doctor on Linux " + sysctl("kernel.osrelease")));
    }

    @Test
    @SuppressWarnings("try") // the client is closed before the server side on purpose, inside the try
    void countsRealTimeWaitSocketsToTheTarget() throws Exception {
        int connections = 5;
        try (ServerSocket server = new ServerSocket()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            Target target = Target.parse("127.0.0.1:" + server.getLocalPort());
            Doctor doctor = Doctor.forThisMachine();
            long before = doctor.timeWait(Optional.of(target)).toTarget();
            for (int i = 0; i < connections; i++) {
                // The client closes first, so its side of the connection goes to TIME_WAIT, as an injector's does.
                try (Socket client = new Socket(target.addresses().get(0), target.port());
                        Socket accepted = server.accept()) {
                    client.close();
                    assertEquals(-1, accepted.getInputStream().read());
                }
            }
            TimeWaitCount after = doctor.timeWait(Optional.of(target));
            assertEquals(before + connections, after.toTarget());
            assertTrue(after.total() >= after.toTarget());
            // ss (what a run samples) and /proc/net/tcp (the fallback) agree
            TimeWaitCount proc = new TcpTable(SystemFiles.under(java.nio.file.Path.of("/"))).timeWait(Optional.of(target));
            assertEquals(after.toTarget(), proc.toTarget());
            assertTrue(SocketStats.find().isPresent(), "iproute2's ss is installed here (it/run-tests.sh installs it)");
        } catch (IOException e) {
            throw new AssertionError("loopback sockets failed", e);
        }
    }
}
