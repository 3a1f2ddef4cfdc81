/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.cluster.Fixtures;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class SpecReaderTest {

    @Test
    void lvsDescriptionGetsDefaultsForEverythingOptional() {
        ClusterSpec s = Fixtures.spec(Fixtures.LVS);
        assertTrue(s.isDirectRouting());
        assertEquals(List.of(80), s.ports());
        assertEquals("10.0.0.0/24", s.network().toString());
        assertEquals("wlc", s.lvs().scheduler());
        assertEquals(0, s.lvs().persistenceSeconds());
        assertEquals(20, s.lvs().connTabBits());
        assertEquals("eth0", s.vrrp().iface());
        assertEquals(51, s.vrrp().routerId());
        assertEquals("lvs2", s.vrrp().backup().name());
        assertEquals(ArpMethod.SYSCTL, s.realservers().get(0).arpMethod());
        assertEquals(ArpMethod.NFT, s.realservers().get(1).arpMethod());
        assertEquals(3, s.realservers().get(2).weight());
        assertEquals(80, s.realservers().get(0).port());
        assertEquals(new HealthCheck(CheckType.HTTP, "/health", 200, 2, 3, 3, 2), s.healthCheck());
        assertEquals(4096, s.nginx().workerConnections());
        assertEquals(8192, s.nginx().workerRlimitNofile());
        assertEquals(1024, s.injectors().portLow());
        assertEquals(65535, s.injectors().portHigh());
        assertEquals(List.of(1099), s.injectors().rmiPorts());
        assertEquals(0, s.vrrp().preemptDelaySeconds());
        assertEquals(IpvsTimeouts.KERNEL, s.lvs().timeouts());
        assertFalse(s.lvs().inhibitOnFailure());
        assertNull(s.haproxy());
    }

    @Test
    void haproxyDescriptionKeepsRealserverPortsAndDerivesDescriptorNeed() {
        ClusterSpec s = Fixtures.spec(Fixtures.HAPROXY);
        assertFalse(s.isDirectRouting());
        assertEquals(8080, s.realservers().get(1).port());
        assertEquals(9000, s.haproxy().maxconn());
        assertEquals(8900, s.haproxy().frontendMaxconn());
        assertEquals(19000, s.haproxy().fileDescriptorNeed());
        assertEquals(52, s.vrrp().routerId());
    }

    private static final String SERVICES = Fixtures.LVS.replace("vip: 10.0.0.100\n", """
            services: [{vip: 10.0.0.100, ports: [80, 443], fwmark: 1}, {vip: 10.0.0.101, ports: [8080]}]
            tls: {certificate: /etc/ssl/s.pem}
            """);

    @Test
    void servicesInheritTheDirectorsPersistenceUnlessTheyGiveTheirOwn() {
        ClusterSpec s = Fixtures.spec(SERVICES.replace("directors:\n", "directors:\n  persistence: 600\n"
                + "  persistence_netmask: 255.255.0.0\n").replace("ports: [8080]}", "ports: [8080], persistence: 0}"));
        assertEquals(List.of(Ipv4.parse("10.0.0.100"), Ipv4.parse("10.0.0.101")), s.vips());
        assertEquals(List.of(80, 443, 8080), s.ports());
        assertEquals(new VirtualService(Ipv4.parse("10.0.0.100"), List.of(80, 443), 1, 600, Ipv4.parse("255.255.0.0")),
                s.services().get(0));
        assertEquals(0, s.services().get(1).persistenceSeconds());
        assertTrue(s.isTls(443) && !s.isTls(80));
        assertEquals("/etc/ssl/s.pem", s.tls().key(), "nginx takes one PEM for both");
    }

    static Stream<Arguments> refusals() {
        String lvs = Fixtures.LVS;
        return Stream.of(
                Arguments.of("malformed VIP", lvs.replace("vip: 10.0.0.100", "vip: 10.0.0.300"), "vip"),
                Arguments.of("malformed realserver address", lvs.replace("10.0.0.12,", "10.0.12,"),
                        "realservers[1].address"),
                Arguments.of("VIP among the realservers", lvs.replace("10.0.0.11", "10.0.0.100"),
                        "realservers[0].address"),
                Arguments.of("duplicate addresses", lvs.replace("10.0.0.12", "10.0.0.11"), "realservers[1].address"),
                Arguments.of("director and realserver share an address", lvs.replace("10.0.0.11", "10.0.0.2"),
                        "realservers[0].address"),
                Arguments.of("DR realserver port differs", lvs.replace("address: 10.0.0.11}",
                        "address: 10.0.0.11, port: 8080}"), "realservers[0].port"),
                Arguments.of("unknown scheduler", lvs.replace("directors:\n", "directors:\n  scheduler: fastest\n"),
                        "directors.scheduler"),
                Arguments.of("VRRP router id out of range", lvs.replace("directors:\n",
                        "directors:\n  virtual_router_id: 256\n"), "directors.virtual_router_id"),
                Arguments.of("loopback as VRRP interface", lvs.replace("directors:\n", "directors:\n  interface: lo\n"),
                        "directors.interface"),
                Arguments.of("unknown top-level key", lvs + "schedular: rr\n", "schedular"),
                Arguments.of("unknown nested key", lvs.replace("directors:\n", "directors:\n  nb_get_retry: 3\n"),
                        "directors.nb_get_retry"),
                Arguments.of("unknown key in a list entry", lvs.replace("weight: 3}", "weight: 3, wieght: 2}"),
                        "realservers[2].wieght"),
                Arguments.of("unknown ARP method", lvs.replace("arp_method: nft", "arp_method: ifconfig"),
                        "realservers[1].arp_method"),
                Arguments.of("address outside the network", lvs.replace("10.0.0.13", "10.0.1.13"),
                        "realservers[2].address"),
                Arguments.of("duplicate host names", lvs.replace("name: web2", "name: web1"), "name of 10.0.0.12"),
                Arguments.of("bad host name", lvs.replace("name: web2", "name: Web_2"), "realservers[1].name"),
                Arguments.of("no realserver", lvs.substring(0, lvs.indexOf("realservers:")), "realservers"),
                Arguments.of("missing VIP", lvs.replace("vip: 10.0.0.100\n", ""), "vip"),
                Arguments.of("missing master", lvs.replace("  master: {name: lvs1, address: 10.0.0.2}\n", ""),
                        "directors.master"),
                Arguments.of("both layers", lvs + "haproxy:\n  nodes:\n    - {name: ha1, address: 10.0.0.5}\n",
                        "directors/haproxy"),
                Arguments.of("bad health path", lvs + "health_check: {path: health}\n", "health_check.path"),
                Arguments.of("bad health type", lvs + "health_check: {type: icmp}\n", "health_check.type"),
                Arguments.of("bad port range", lvs + "injectors: {port_range: 60000-60100}\n", "injectors.port_range"),
                Arguments.of("worker_connections above nofile", lvs
                        + "nginx: {worker_connections: 40000}\nlimits: {nofile: 65536}\n", "nginx.worker_connections"),
                Arguments.of("bad port", lvs + "ports: [80, 70000]\n", "ports"),
                Arguments.of("bad network", lvs + "network: 10.0.0.0/33\n", "network"),
                Arguments.of("maxconn beyond the descriptor limit", Fixtures.HAPROXY.replace("maxconn: 9000",
                        "maxconn: 600000"), "haproxy.maxconn"),
                Arguments.of("server maxconn above frontend", Fixtures.HAPROXY.replace("maxconn: 9000",
                        "maxconn: 9000\n  server_maxconn: 9000"), "haproxy.server_maxconn"),
                Arguments.of("three HAProxy nodes", Fixtures.HAPROXY.replace("    - {name: ha2, address: 10.0.0.6}\n",
                        "    - {name: ha2, address: 10.0.0.6}\n    - {name: ha3, address: 10.0.0.7}\n"),
                        "haproxy.nodes"),
                Arguments.of("arp_method behind HAProxy", Fixtures.HAPROXY.replace("port: 8080}",
                        "port: 8080, arp_method: nft}"), "realservers[1].arp_method"),
                Arguments.of("unknown balance", Fixtures.HAPROXY.replace("maxconn: 9000",
                        "maxconn: 9000\n  balance: random-ish"), "haproxy.balance"),
                Arguments.of("every weight zero", Fixtures.HAPROXY.replace("address: 10.0.0.11}",
                        "address: 10.0.0.11, weight: 0}").replace("port: 8080}", "port: 8080, weight: 0}"),
                        "realservers"),
                Arguments.of("interface ..", lvs.replace("directors:\n", "directors:\n  interface: '..'\n"),
                        "directors.interface"),
                Arguments.of("interface -x", lvs.replace("directors:\n", "directors:\n  interface: -x\n"),
                        "directors.interface"),
                Arguments.of("interface all", lvs.replace("directors:\n", "directors:\n  interface: all\n"),
                        "directors.interface"),
                Arguments.of("interface default", Fixtures.HAPROXY.replace("haproxy:\n",
                        "haproxy:\n  interface: default\n"), "haproxy.interface"),
                Arguments.of("health path with //", lvs + "health_check: {path: //health}\n", "health_check.path"),
                Arguments.of("health path with ..", lvs + "health_check: {path: /x/../health}\n", "health_check.path"),
                Arguments.of("health path with %61", lvs + "health_check: {path: /he%61lth}\n", "health_check.path"),
                Arguments.of("health path above /", lvs + "health_check: {path: /../health}\n", "health_check.path"),
                Arguments.of("health path with a bad escape", lvs + "health_check: {path: /h%zz}\n",
                        "health_check.path"),
                Arguments.of("HAProxy weight above 256", Fixtures.HAPROXY.replace("port: 8080}",
                        "port: 8080, weight: 300}"), "realservers[1].weight"),
                Arguments.of("HAProxy threads above MAX_THREADS", Fixtures.HAPROXY.replace("maxconn: 9000",
                        "maxconn: 9000\n  threads: 65"), "haproxy.threads"),
                Arguments.of("stats on the node without auth", Fixtures.HAPROXY.replace("maxconn: 9000",
                        "maxconn: 9000\n  stats_bind: node"), "haproxy.stats_auth"),
                Arguments.of("stats auth with a short password", Fixtures.HAPROXY.replace("maxconn: 9000",
                        "maxconn: 9000\n  stats_auth: admin:short"), "haproxy.stats_auth"),
                Arguments.of("stats auth with a backslash HAProxy reads as an escape", Fixtures.HAPROXY.replace(
                        "maxconn: 9000", "maxconn: 9000\n  stats_auth: 'admin:pass\\word1'"), "haproxy.stats_auth"),
                Arguments.of("TLS certificate climbing out with ..", SERVICES.replace("/etc/ssl/s.pem",
                        "/../../../../tmp/x.pem"), "tls.certificate"),
                Arguments.of("TLS key with a .. inside", SERVICES.replace("certificate: /etc/ssl/s.pem",
                        "certificate: /etc/ssl/s.pem, key: /etc/ssl/../../root/k.pem"), "tls.key"),
                Arguments.of("TLS certificate with a . segment", SERVICES.replace("/etc/ssl/s.pem", "/etc/./s.pem"),
                        "tls.certificate"),
                Arguments.of("TLS certificate with an empty segment", SERVICES.replace("/etc/ssl/s.pem", "/etc//s.pem"),
                        "tls.certificate"),
                Arguments.of("unknown stats_bind", Fixtures.HAPROXY.replace("maxconn: 9000",
                        "maxconn: 9000\n  stats_bind: everywhere"), "haproxy.stats_bind"),
                Arguments.of("preempt_delay above keepalived's 1000 s", lvs.replace("directors:\n",
                        "directors:\n  preempt_delay: 2000\n"), "directors.preempt_delay"),
                Arguments.of("port range ends of equal parity", lvs + "injectors: {port_range: 1024-65000}\n",
                        "injectors.port_range"),
                Arguments.of("bad RMI port", lvs + "injectors: {rmi_ports: [1099, 70000]}\n", "injectors.rmi_ports"),
                Arguments.of("nofile above the fs.nr_open ceiling", lvs + "limits: {nofile: 2147483600}\n",
                        "limits.nofile"),
                Arguments.of("unknown IPVS timeout", lvs.replace("directors:\n", "directors:\n  timeouts: {tcpfn: 30}\n"),
                        "directors.timeouts.tcpfn"),
                Arguments.of("sorry server not an address", lvs.replace("directors:\n",
                        "directors:\n  sorry_server: 10.0.0\n"), "directors.sorry_server"),
                Arguments.of("sorry server off the segment", lvs.replace("directors:\n",
                        "directors:\n  sorry_server: 10.9.0.20\n"), "directors.sorry_server"),
                Arguments.of("sorry server is a realserver", lvs.replace("directors:\n",
                        "directors:\n  sorry_server: 10.0.0.11\n"), "directors.sorry_server"),
                Arguments.of("sync_daemon not a boolean", lvs.replace("directors:\n",
                        "directors:\n  sync_daemon: maybe\n"), "directors.sync_daemon"),
                Arguments.of("services and vip together", lvs + "services:\n  - {vip: 10.0.0.101}\n", "services"),
                Arguments.of("443 without TLS material", lvs + "ports: [80, 443]\n", "ports"),
                Arguments.of("443 in a service without TLS material", SERVICES
                        .replace("tls: {certificate: /etc/ssl/s.pem}\n", "").replace("ports: [80, 443]", "ports: [80]")
                        .replace("ports: [8080]", "ports: [443]"), "services[1].ports"),
                Arguments.of("TLS port no service serves", SERVICES.replace("certificate: /etc/ssl/s.pem",
                        "certificate: /etc/ssl/s.pem, ports: [8443]"), "tls.ports"),
                Arguments.of("TLS certificate not a path", SERVICES.replace("/etc/ssl/s.pem", "site.pem"),
                        "tls.certificate"),
                Arguments.of("separate key for HAProxy", Fixtures.HAPROXY + "ports: [443]\ntls: {certificate: /etc/c.pem,"
                        + " key: /etc/k.pem}\n", "tls.key"),
                Arguments.of("nginx http2 without a TLS port", lvs + "nginx: {http2: true}\n", "nginx.http2"),
                Arguments.of("nginx http2 behind HAProxy", Fixtures.HAPROXY + "ports: [443]\n"
                        + "tls: {certificate: /etc/c.pem}\nnginx: {http2: true}\n", "nginx.http2"),
                Arguments.of("HAProxy http2 without a TLS port", Fixtures.HAPROXY.replace("maxconn: 9000",
                        "maxconn: 9000\n  http2: true"), "haproxy.http2"),
                Arguments.of("http2 not a boolean", lvs + "nginx: {http2: h2}\n", "nginx.http2"),
                Arguments.of("fwmark behind HAProxy", Fixtures.HAPROXY.replace("vip: 10.0.0.100\n",
                        "services:\n  - {vip: 10.0.0.100, fwmark: 1}\n"), "services[0].fwmark"),
                Arguments.of("fwmark used twice", SERVICES.replace("ports: [8080]", "ports: [8080], fwmark: 1"),
                        "services[1].fwmark"),
                Arguments.of("VIP:port in two services", SERVICES.replace("{vip: 10.0.0.101, ports: [8080]}",
                        "{vip: 10.0.0.100, ports: [80]}"), "services[1].ports"),
                Arguments.of("second VIP outside the network", SERVICES.replace("10.0.0.101", "10.0.1.101"),
                        "services[1].vip"),
                Arguments.of("realserver on the second VIP", SERVICES.replace("10.0.0.101", "10.0.0.11"),
                        "realservers[0].address"),
                Arguments.of("netmask without persistence", lvs.replace("directors:\n",
                        "directors:\n  persistence_netmask: 255.255.255.0\n"), "directors.persistence_netmask"),
                Arguments.of("netmask that is no mask", lvs.replace("directors:\n",
                        "directors:\n  persistence: 60\n  persistence_netmask: 255.0.255.0\n"),
                        "directors.persistence_netmask"),
                Arguments.of("not YAML", "vip: [10.0.0.1\n", "(file)"),
                Arguments.of("duplicate key", lvs + "vip: 10.0.0.101\n", "(file)"),
                Arguments.of("empty file", "", "(file)"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusals")
    void refusesBadInputNamingTheFieldAndTheFix(String why, String yaml, String field) {
        SpecException e = assertThrows(SpecException.class, () -> new SpecReader().read(yaml));
        assertTrue(e.problems().stream().anyMatch(p -> p.field().equals(field)),
                why + ": expected a problem on " + field + ", got " + e.problems());
        for (SpecProblem p : e.problems()) {
            assertFalse(p.fix().isBlank(), "every refusal says how to fix it: " + p);
        }
    }

    @Test
    void sorryServerAndSyncDaemonAreOptional() throws SpecException {
        ClusterSpec plain = new SpecReader().read(Fixtures.LVS);
        assertNull(plain.lvs().sorryServer());
        assertFalse(plain.lvs().syncDaemon());
        ClusterSpec both = new SpecReader().read(Fixtures.LVS.replace("directors:\n",
                "directors:\n  sorry_server: 10.0.0.20\n  sync_daemon: true\n"));
        assertEquals(Ipv4.parse("10.0.0.20"), both.lvs().sorryServer());
        assertTrue(both.lvs().syncDaemon());
        assertFalse(both.withLvs(both.lvs().withSyncDaemon(false)).lvs().syncDaemon());
    }

    @Test
    void healthPathRefusalNamesThePathNginxWouldSee() {
        SpecException e = assertThrows(SpecException.class,
                () -> new SpecReader().read(Fixtures.LVS + "health_check: {path: '/x/.//he%61lth'}\n"));
        assertTrue(e.problems().get(0).problem().contains("reaches nginx as /x/health"), e.getMessage());
        assertEquals("write path: /x/health", e.problems().get(0).fix());
        assertEquals("/health/", HealthPath.asNginxSeesIt("/health/x/.."));
        assertEquals("/health", HealthPath.asNginxSeesIt("/health"));
    }

    @Test
    void portRangeRefusalProposesARangeOfDifferentParity() {
        SpecException e = assertThrows(SpecException.class,
                () -> new SpecReader().read(Fixtures.LVS + "injectors: {port_range: 1025-65535}\n"));
        assertEquals("write 1025-65534 (ends of different parity)", e.problems().get(0).fix());
    }

    @Test
    void reportsEveryProblemAtOnce() {
        String yaml = Fixtures.LVS.replace("10.0.0.11", "10.0.0.300").replace("name: web2", "name: Web2") + "x: 1\n";
        SpecException e = assertThrows(SpecException.class, () -> new SpecReader().read(yaml));
        assertTrue(e.problems().size() >= 3, e.getMessage());
    }
}
