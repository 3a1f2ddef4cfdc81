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

    private final ClusterSpec spec;
    private final Problems problems;

    SpecRules(ClusterSpec spec, Problems problems) {
        this.spec = spec;
        this.problems = problems;
    }

    void check() {
        checkAddresses();
        checkNames();
        checkBudgets();
    }

    private void checkAddresses() {
        Cidr net = spec.network();
        if (!net.contains(spec.vip()) || net.isReserved(spec.vip())) {
            problems.add("vip", spec.vip() + " is not a host address of network " + net,
                    "pick a VIP inside " + net + " or set network: to the segment the VIP lives on");
        }
        Map<Ipv4, String> owners = new HashMap<>();
        owners.put(spec.vip(), "vip");
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
            if (rs.address().equals(spec.vip())) {
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
