/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.model;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Cross-field rules of a description whose fields each parsed: addresses, names and descriptor budgets. */
final class SpecRules {

    private static final int HTTPS = 443;

    private final ClusterSpec spec;
    private final boolean shorthand;
    private final Problems problems;

    /** @param shorthand the one service came from top-level vip:/ports:, not from services: */
    SpecRules(ClusterSpec spec, boolean shorthand, Problems problems) {
        this.spec = spec;
        this.shorthand = shorthand;
        this.problems = problems;
    }

    void check() {
        checkAddresses();
        checkServices();
        checkTls();
        checkNames();
        checkBudgets();
    }

    private String serviceField(int i, String key) {
        return shorthand ? key : "services[" + i + "]." + key;
    }

    private void checkAddresses() {
        Cidr net = spec.network();
        Map<Ipv4, String> owners = new HashMap<>();
        for (int i = 0; i < spec.services().size(); i++) {
            Ipv4 vip = spec.services().get(i).vip();
            if (owners.containsKey(vip)) {
                continue; // several services may share a VIP on different ports
            }
            owners.put(vip, serviceField(i, "vip"));
            if (!net.contains(vip) || net.isReserved(vip)) {
                problems.add(serviceField(i, "vip"), vip + " is not a host address of network " + net,
                        "pick a VIP inside " + net + " or set network: to the segment the VIP lives on");
            }
        }
        String front = spec.isDirectRouting() ? "directors" : "haproxy.nodes";
        List<Host> frontHosts = spec.vrrp().hosts();
        for (int i = 0; i < frontHosts.size(); i++) {
            String field = spec.isDirectRouting() ? "directors." + (i == 0 ? "master" : "backup") + ".address"
                    : "haproxy.nodes[" + i + "].address";
            claim(owners, frontHosts.get(i).address(), field, true);
        }
        for (int i = 0; i < spec.realservers().size(); i++) {
            Realserver rs = spec.realservers().get(i);
            String field = "realservers[" + i + "].address";
            if (spec.vips().contains(rs.address())) {
                problems.add(field, rs.address() + " is the VIP; a realserver needs its own address (RIP) and"
                        + " only holds the VIP on lo", "give " + rs.name() + " a distinct address in " + net);
                continue;
            }
            claim(owners, rs.address(), field, spec.isDirectRouting());
        }
        if (spec.isDirectRouting() && spec.lvs().sorryServer() != null) {
            claim(owners, spec.lvs().sorryServer(), "directors.sorry_server", true);
        }
        List<Host> injectors = spec.injectors().hosts();
        for (int i = 0; i < injectors.size(); i++) {
            claim(owners, injectors.get(i).address(), "injectors.hosts[" + i + "].address", false);
        }
        if (spec.realservers().stream().allMatch(r -> r.weight() == 0)) {
            problems.add("realservers", "every weight is 0, so no realserver would get traffic",
                    "give at least one realserver weight: 1 or more (0 only drains a server)");
        }
        if (frontHosts.isEmpty()) {
            problems.add(front, "is empty", "describe the host(s) that hold the VIP");
        }
    }

    /** Records the owner of an address; refuses duplicates and, for one-segment hosts, addresses off the segment. */
    private void claim(Map<Ipv4, String> owners, Ipv4 address, String field, boolean onSegment) {
        String previous = owners.putIfAbsent(address, field);
        if (previous != null) {
            problems.add(field, address + " is already used by " + previous, "give every host its own address");
        }
        Cidr net = spec.network();
        if (onSegment && (!net.contains(address) || net.isReserved(address))) {
            problems.add(field, address + " is not a host address of network " + net + " (LVS-DR and VRRP need"
                    + " one L2 segment)", "use an address inside " + net + " or correct network:");
        }
    }

    /** Each VIP:port and each firewall mark belongs to one IPVS service; a client netmask needs persistence. */
    private void checkServices() {
        Map<String, String> endpoints = new HashMap<>();
        Map<Integer, String> marks = new HashMap<>();
        for (int i = 0; i < spec.services().size(); i++) {
            VirtualService s = spec.services().get(i);
            for (int port : s.ports()) {
                String previous = endpoints.putIfAbsent(s.vip() + ":" + port, serviceField(i, "ports"));
                if (previous != null) {
                    problems.add(serviceField(i, "ports"), s.vip() + ":" + port + " is already served by " + previous,
                            "list each VIP:port in one service only (a fwmark service can hold several ports)");
                }
            }
            if (s.hasFwmark() && marks.putIfAbsent(s.fwmark(), serviceField(i, "fwmark")) != null) {
                problems.add(serviceField(i, "fwmark"), "mark " + s.fwmark() + " is already used by "
                        + marks.get(s.fwmark()), "give every firewall-mark service its own mark");
            }
            if (s.persistenceNetmask() != null && s.persistenceSeconds() == 0) {
                problems.add(serviceField(i, "persistence_netmask"), "groups clients for persistence, but the"
                        + " service has no persistence timeout (ipvsadm -M needs -p)",
                        "set persistence: (seconds) as well, or remove the netmask");
            }
        }
        Lvs lvs = spec.lvs();
        if (lvs != null && lvs.persistenceNetmask() != null
                && spec.services().stream().allMatch(s -> s.persistenceSeconds() == 0)) {
            problems.add("directors.persistence_netmask", "groups clients for persistence, but no service has a"
                    + " persistence timeout (ipvsadm -M needs -p)", "set directors.persistence as well, or remove"
                    + " the netmask");
        }
    }

    /**
     * 443 is HTTPS to every client: served without TLS material it would answer TLS handshakes with plain HTTP.
     * Every TLS port must be one the services list; HAProxy's crt takes one PEM with certificate and key.
     */
    private void checkTls() {
        Tls tls = spec.tls();
        for (int i = 0; i < spec.services().size(); i++) {
            if (spec.services().get(i).ports().contains(HTTPS) && tls == null) {
                problems.add(serviceField(i, "ports"), "443 is listed but no TLS material is described, so"
                        + " HTTPS clients would get plain HTTP", "add tls: {certificate: /etc/ssl/private/site.pem}"
                        + " (a PEM with certificate and key; key: may name a separate file) or remove 443");
            }
        }
        checkHttp2(tls);
        if (tls == null) {
            return;
        }
        for (int port : tls.ports()) {
            if (!spec.ports().contains(port)) {
                problems.add("tls.ports", port + " is not a port of any service", "list only ports the services"
                        + " serve, e.g. tls: {ports: [443]}");
            }
        }
        if (!spec.isDirectRouting() && !tls.key().equals(tls.certificate())) {
            problems.add("tls.key", "HAProxy's bind ... ssl crt takes one PEM file holding the certificate and its"
                    + " key", "concatenate them into the certificate file and remove tls.key");
        }
    }

    /**
     * HTTP/2 is offered by ALPN during the TLS handshake, so http2 needs a TLS port. nginx 1.22 answers HTTP/1.1
     * requests on a cleartext {@code listen ... http2} port with HTTP/2 frames (curl gets no status), which would
     * lock out HTTP/1.1 clients and the health checks; behind HAProxy, nginx only ever talks to HAProxy's backend.
     */
    private void checkHttp2(Tls tls) {
        String example = "add tls: {certificate: /etc/ssl/private/site.pem, ports: [443]} and list 443 in ports";
        if (spec.nginx().http2() && !spec.isDirectRouting()) {
            problems.add("nginx.http2", "behind HAProxy nginx is reached by HAProxy's backend over cleartext"
                    + " HTTP/1.1; clients get HTTP/2 from HAProxy's front end",
                    "remove nginx.http2 and set haproxy.http2: true");
        } else if (spec.nginx().http2() && tls == null) {
            problems.add("nginx.http2", "needs a TLS port: nginx offers HTTP/2 by ALPN on 'listen ... ssl http2',"
                    + " and a cleartext 'listen ... http2' port would refuse HTTP/1.1 clients and keepalived's"
                    + " HTTP_GET check", example + ", or remove nginx.http2");
        }
        if (spec.haproxy() != null && spec.haproxy().http2() && tls == null) {
            problems.add("haproxy.http2", "needs a TLS port: HAProxy offers h2 by ALPN on 'bind ... ssl crt ..."
                    + " alpn " + Haproxy.ALPN + "' (its cleartext binds already accept h2c with prior knowledge)",
                    example + " (one PEM with certificate and key), or remove haproxy.http2");
        }
    }

    private void checkNames() {
        Map<String, Boolean> seen = new HashMap<>();
        for (Host h : spec.allHosts()) {
            if (seen.put(h.name(), Boolean.TRUE) != null) {
                problems.add("name of " + h.address(), "host name '" + h.name() + "' is used twice",
                        "give every director, node, realserver and injector a distinct name");
            }
        }
    }

    private void checkBudgets() {
        int nofile = spec.nofileLimit();
        Haproxy ha = spec.haproxy();
        if (ha != null) {
            if (ha.fileDescriptorNeed() > nofile) {
                problems.add("haproxy.maxconn", ha.maxconn() + " needs " + ha.fileDescriptorNeed()
                        + " file descriptors (2 x maxconn + 1000), more than limits.nofile " + nofile,
                        "lower haproxy.maxconn to at most " + (nofile - 1000) / 2 + " or raise limits.nofile");
            }
            if (ha.serverMaxconn() > ha.frontendMaxconn()) {
                problems.add("haproxy.server_maxconn", ha.serverMaxconn() + " exceeds the frontend's "
                        + ha.frontendMaxconn() + " (maxconn - " + Haproxy.RESERVED_CONNECTIONS + ")",
                        "lower server_maxconn or raise haproxy.maxconn");
            }
        }
        Nginx nginx = spec.nginx();
        if (nginx.workerRlimitNofile() > nofile) {
            problems.add("nginx.worker_connections", nginx.workerConnections() + " needs worker_rlimit_nofile "
                    + nginx.workerRlimitNofile() + " (2 x worker_connections), more than limits.nofile " + nofile,
                    "lower worker_connections to at most " + nofile / 2 + " or raise limits.nofile");
        }
    }
}
