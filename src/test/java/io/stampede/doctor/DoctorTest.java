/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.doctor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.cli.ExitCodes;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DoctorTest {

    @TempDir
    Path dir;

    private static Target remote(int port) throws Exception {
        return new Target("10.9.0.2", port, List.of(InetAddress.getByName("10.9.0.2")), false, false);
    }

    private static Target loopback(int port) throws Exception {
        return new Target("127.0.0.1", port, List.of(InetAddress.getByName("127.0.0.1")), true, true);
    }

    private static Check check(DoctorReport r, String id) {
        return r.checks().stream().filter(c -> c.id().equals(id)).findFirst().orElseThrow(() -> new AssertionError(
                "no check " + id + " in\n" + r.text()));
    }

    @Test
    void defaultMachineWithoutLoadIsOkAndSaysItsFigures() {
        DoctorReport r = new FakeMachine(dir).linux().examine(Optional.empty(), PlannedLoad.unknown());
        assertEquals(Verdict.OK, r.verdict(), r.text());
        assertEquals(ExitCodes.OK, r.exitCode());
        assertEquals("doctor: ok (ports 32768-60999, 28232 per destination; nofile 20000)", r.summary());
        assertTrue(check(r, "new-connection-rate").value().startsWith("about 471 new connections/s per destination"
                + " (28232 ports / 60 s TIME_WAIT)"), r.text());
        assertTrue(check(r, "new-connection-rate").detail().contains("tcp_fin_timeout (60) does not shorten TIME_WAIT"));
        assertTrue(r.problemLines().isEmpty());
        assertEquals("not loaded", check(r, "conntrack").value());
    }

    @Test
    void narrowRangeWithoutReuseFailsANoKeepAliveRateAndGivesTheFixes() throws Exception {
        FakeMachine m = new FakeMachine(dir).sysctl("net.ipv4.ip_local_port_range", "40000 40499")
                .sysctl("net.ipv4.tcp_tw_reuse", "0");
        DoctorReport r = m.linux().examine(Optional.of(remote(80)), PlannedLoad.of(200L, 50.0));
        Check rate = check(r, "new-connection-rate");
        assertEquals(Verdict.FAIL, rate.verdict(), r.text());
        assertEquals(ExitCodes.CHECK_FAILED, r.exitCode());
        assertTrue(rate.value().contains("about 8.3 new connections/s per destination (500 ports / 60 s TIME_WAIT); planned 50/s"),
                rate.value());
        assertTrue(rate.detail().contains("uses up the ports within 10 s"), rate.detail());
        assertTrue(rate.remedy().stream().anyMatch(s -> s.startsWith("net.ipv4.ip_local_port_range = 1024 65000")), rate.remedy().toString());
        assertTrue(rate.remedy().stream().anyMatch(s -> s.startsWith("net.ipv4.tcp_tw_reuse = 1")));
        assertTrue(rate.remedy().stream().anyMatch(s -> s.contains("keep connections alive")));
        assertTrue(rate.remedy().stream().anyMatch(s -> s.contains("6 source addresses would carry 50/s")), rate.remedy().toString());
        assertEquals(Verdict.WARN, check(r, "ports").verdict());
        assertTrue(r.summary().startsWith("doctor: fail (ports 40000-40499, 500 per destination; about 8.3 new"), r.summary());
        assertTrue(r.problemLines().stream().anyMatch(l -> l.startsWith("FAIL new connections/s: ")), r.problemLines().toString());
    }

    @Test
    void loopbackReuseModeTwoAppliesToALoopbackTargetOnly() throws Exception {
        FakeMachine m = new FakeMachine(dir).sysctl("net.ipv4.ip_local_port_range", "40000 40499");
        DoctorReport toLoopback = m.linux().examine(Optional.of(loopback(8080)), PlannedLoad.of(null, 50.0));
        assertEquals(Verdict.OK, check(toLoopback, "new-connection-rate").verdict(), toLoopback.text());
        assertTrue(check(toLoopback, "new-connection-rate").value().contains("about 500 new connections/s"));
        assertTrue(check(toLoopback, "tw-reuse").detail().endsWith("applies to 127.0.0.1:8080"));
        DoctorReport toRemote = m.linux().examine(Optional.of(remote(80)), PlannedLoad.of(null, 50.0));
        assertEquals(Verdict.FAIL, check(toRemote, "new-connection-rate").verdict());
        assertTrue(check(toRemote, "tw-reuse").detail().endsWith("does not apply to 10.9.0.2:80"));
    }

    @Test
    void reuseWithoutTimestampsIsAWarningAndDoesNotCount() throws Exception {
        FakeMachine m = new FakeMachine(dir).sysctl("net.ipv4.tcp_tw_reuse", "1").sysctl("net.ipv4.tcp_timestamps", "0")
                .remove("/proc/sys/net/ipv4/tcp_tw_reuse_delay");
        DoctorReport r = m.linux().examine(Optional.of(remote(80)), PlannedLoad.unknown());
        assertEquals(Verdict.WARN, check(r, "tw-reuse").verdict());
        assertEquals(Verdict.WARN, check(r, "timestamps").verdict());
        assertTrue(check(r, "tw-reuse").value().contains("no tcp_tw_reuse_delay in this kernel"));
        assertTrue(check(r, "new-connection-rate").value().contains("/ 60 s TIME_WAIT"));
        assertEquals(ExitCodes.WARNINGS, r.exitCode());
    }

    @Test
    void reservedPortsInsideTheRangeAreSubtracted() {
        assertEquals(101 + 1, PortBudget.reservedWithin("8080,40000-40100,1-10,40400", 40000, 40499));
        FakeMachine m = new FakeMachine(dir).sysctl("net.ipv4.ip_local_reserved_ports", "32768-33767");
        DoctorReport r = m.linux().examine(Optional.empty(), PlannedLoad.unknown());
        assertEquals("32768-60999 = 27232 ports (1000 reserved)", check(r, "ports").value());
    }

    @Test
    void aRunThatFitsInThePortsIsOkWhateverItsRate() throws Exception {
        DoctorReport r = new FakeMachine(dir).linux().examine(Optional.of(remote(80)),
                new PlannedLoad(java.util.OptionalLong.of(10), java.util.OptionalDouble.of(1000),
                        java.util.OptionalLong.of(20000), List.of()));
        assertEquals(Verdict.OK, check(r, "new-connection-rate").verdict(), r.text());
        assertTrue(check(r, "new-connection-rate").detail().contains("the whole run opens 20000 new connections"));
    }

    @Test
    void openFilesAreComparedWithTheHardLimit() {
        FakeMachine m = new FakeMachine(dir).file("/proc/self/limits",
                "Max open files            1024                 4096                 files     \n");
        Check fail = check(m.linux().examine(Optional.empty(), PlannedLoad.of(5000L, null)), "nofile");
        assertEquals(Verdict.FAIL, fail.verdict());
        assertTrue(fail.value().contains("soft 1024, hard 4096"), fail.value());
        assertTrue(fail.value().contains("needed 5200 (5000 connections + 200)"), fail.value());
        assertEquals("systemd service: LimitNOFILE=7168", fail.remedy().get(0));
        assertEquals(Verdict.WARN, check(m.linux().examine(Optional.empty(), PlannedLoad.of(3100L, null)), "nofile").verdict());
        assertEquals(Verdict.OK, check(m.linux().examine(Optional.empty(), PlannedLoad.of(3000L, null)), "nofile").verdict());
        m.sysctl("fs.nr_open", "5000");
        Check beyond = check(m.linux().examine(Optional.empty(), PlannedLoad.of(5000L, null)), "nofile");
        assertTrue(beyond.remedy().stream().anyMatch(s -> s.startsWith("fs.nr_open = 7168")), beyond.remedy().toString());
    }

    @Test
    void timeWaitIsCountedInTotalAndToTheTargetIncludingV4MappedSockets() throws Exception {
        // 127.0.0.1:8080 is 0100007F:1F90; in tcp6 as ::ffff:127.0.0.1 it is 0000000000000000FFFF00000100007F.
        String tcp = FakeMachine.TCP_HEADER
                + FakeMachine.tcpLine(0, "0100007F:9C40", "0100007F:1F90", "06")
                + FakeMachine.tcpLine(1, "0100007F:9C41", "0100007F:1F90", "06")
                + FakeMachine.tcpLine(2, "0100007F:9C42", "0100007F:1F90", "01")
                + FakeMachine.tcpLine(3, "0100007F:9C43", "0100007F:0050", "06");
        String tcp6 = FakeMachine.TCP_HEADER
                + FakeMachine.tcpLine(0, "0000000000000000FFFF00000100007F:9C44", "0000000000000000FFFF00000100007F:1F90", "06")
                + FakeMachine.tcpLine(1, "00000000000000000000000001000000:9C45", "00000000000000000000000001000000:1F90", "06");
        FakeMachine m = new FakeMachine(dir).file("/proc/net/tcp", tcp).file("/proc/net/tcp6", tcp6);
        TimeWaitCount count = m.linux().timeWait(Optional.of(loopback(8080)));
        assertEquals(new TimeWaitCount(5, 3), count);
        assertEquals(InetAddress.getByName("::1"), TcpTable.address("00000000000000000000000001000000"));
        DoctorReport r = m.linux().examine(Optional.of(loopback(8080)), PlannedLoad.unknown());
        assertEquals("5 in total, 3 to 127.0.0.1:8080", check(r, "time-wait").value());
        m.sysctl("net.ipv4.ip_local_port_range", "40000 40009");
        DoctorReport full = m.linux().examine(Optional.of(loopback(8080)), PlannedLoad.unknown());
        assertEquals(Verdict.WARN, check(full, "time-wait").verdict(), full.text());
        m.sysctl("net.ipv4.ip_local_port_range", "40000 40002");
        assertEquals(Verdict.FAIL, check(m.linux().examine(Optional.of(loopback(8080)), PlannedLoad.unknown()), "time-wait").verdict());
    }

    @Test
    void backlogIsCheckedForALocalTargetOnly() throws Exception {
        FakeMachine m = new FakeMachine(dir).sysctl("net.core.somaxconn", "128");
        DoctorReport local = m.linux().examine(Optional.of(loopback(8080)), PlannedLoad.of(1000L, null));
        Check backlog = check(local, "backlog");
        assertEquals(Verdict.WARN, backlog.verdict());
        assertTrue(backlog.remedy().contains("nginx: listen 8080 backlog=1024;"), backlog.remedy().toString());
        DoctorReport far = m.linux().examine(Optional.of(remote(80)), PlannedLoad.of(1000L, null));
        assertFalse(far.checks().stream().anyMatch(c -> c.id().equals("backlog")));
    }

    @Test
    void conntrackIsProjectedWithTheTimeWaitTimeout() {
        FakeMachine m = new FakeMachine(dir).sysctl("net.netfilter.nf_conntrack_max", "65536")
                .sysctl("net.netfilter.nf_conntrack_count", "100")
                .sysctl("net.netfilter.nf_conntrack_tcp_timeout_time_wait", "120");
        assertEquals(Verdict.OK, check(m.linux().examine(Optional.empty(), PlannedLoad.of(100L, null)), "conntrack").verdict());
        Check full = check(m.linux().examine(Optional.empty(), PlannedLoad.of(100L, 1000.0)), "conntrack");
        assertEquals(Verdict.FAIL, full.verdict());
        assertTrue(full.value().contains("about 120200 with the planned load"), full.value());
    }

    @Test
    void sysctlFilesAreLintedForRemovedAndUnknownKeys() {
        FakeMachine m = new FakeMachine(dir)
                .file("/etc/sysctl.d/10-tuning.conf", "# from a blog\nnet.ipv4.tcp_tw_recycle = 1\n"
                        + "net/ipv4/tcp_fin_timeout=10\n-net.ipv4.tcp_no_such_thing = 3\n"
                        + "net.ipv4.conf.eth9.rp_filter = 0\nnet.netfilter.nf_conntrack_max = 1\n")
                .file("/etc/sysctl.d/README", "net.ipv4.tcp_tw_recycle = 1\n");
        DoctorReport r = m.linux().examine(Optional.empty(), PlannedLoad.unknown());
        List<Check> lint = r.checks().stream().filter(c -> c.id().equals("sysctl-files")).toList();
        assertEquals(2, lint.size(), r.text());
        assertEquals("net.ipv4.tcp_tw_recycle at /etc/sysctl.d/10-tuning.conf:2", lint.get(0).value());
        assertTrue(lint.get(0).detail().contains("removed in Linux 4.12"));
        assertEquals("delete line 2 of /etc/sysctl.d/10-tuning.conf ('net.ipv4.tcp_tw_recycle = 1')", lint.get(0).remedy().get(0));
        assertEquals("net.ipv4.tcp_no_such_thing at /etc/sysctl.d/10-tuning.conf:4", lint.get(1).value());
        assertEquals(ExitCodes.WARNINGS, r.exitCode());
    }

    @Test
    void windowsGetsExplanationsAndTheDefaultsBudget() {
        Doctor windows = new Doctor(SystemFiles.under(dir), "Windows Server 2022");
        DoctorReport idle = windows.examine(Optional.empty(), PlannedLoad.unknown());
        assertEquals(Verdict.WARN, idle.verdict());
        Check rate = check(idle, "new-connection-rate");
        assertTrue(rate.value().contains("about 68.3 new connections/s"), rate.value());
        assertTrue(rate.remedy().contains("netsh int ipv4 set dynamicport tcp start=10000 num=55535"));
        assertTrue(rate.remedy().stream().anyMatch(s -> s.contains("TcpTimedWaitDelay /t REG_DWORD /d 30")));
        assertTrue(check(idle, "ports").detail().contains("netsh int ipv4 show dynamicport tcp"));
        DoctorReport busy = windows.examine(Optional.empty(), PlannedLoad.of(1000L, 200.0));
        assertEquals(ExitCodes.CHECK_FAILED, busy.exitCode());
    }

    @Test
    void jsonCarriesTheSameChecks() throws Exception {
        FakeMachine m = new FakeMachine(dir).sysctl("net.ipv4.ip_local_port_range", "40000 40499")
                .sysctl("net.ipv4.tcp_tw_reuse", "0");
        DoctorReport r = m.linux().examine(Optional.of(remote(80)), PlannedLoad.of(200L, 50.0));
        String json = r.json();
        assertTrue(json.startsWith("{\n  \"verdict\": \"fail\",\n  \"exit\": 1,\n  \"summary\": \"doctor: fail (ports 40000-40499"), json);
        assertTrue(json.contains("\"id\": \"new-connection-rate\""));
        assertTrue(json.contains("\"new_connections_per_second\": 50.0"));
        assertTrue(json.contains("\"total_new_connections\": null"));
        assertEquals(r.checks().size(), json.split("\"id\": ").length - 1);
    }
}
