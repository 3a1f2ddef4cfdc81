/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.model;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Reads the layer in front of the realservers of a cluster description: LVS-DR directors (IPVS scheduler,
 * persistence, timeouts) or HAProxy nodes (threads, limits, balancing, stats), each pair with its VRRP settings.
 */
final class FrontLayerReader {

    static final List<String> BALANCES = List.of("roundrobin", "static-rr", "leastconn", "first", "source");
    static final List<String> HTTP_REUSE = List.of("never", "safe", "aggressive", "always");
    private static final Pattern IFACE = Pattern.compile("[A-Za-z0-9_.-]{1,15}");
    /** No '\\': HAProxy's configuration reads it as an escape, so the password would not be the one written. */
    private static final Pattern AUTH = Pattern.compile("[A-Za-z0-9_.-]{1,32}:[^\\s:#\"'\\\\]{8,128}");

    private FrontLayerReader() {}

    /** directors: the LVS-DR pair and its IPVS settings. */
    static Lvs lvs(Fields f) {
        List<Host> hosts = new ArrayList<>();
        if (!f.has("master")) {
            f.problems().add(f.field("master"), "is missing", "add master: {name: lvs1, address: 10.0.0.2}");
        } else {
            hosts.add(SpecReader.readHostChild(f, "master"));
        }
        if (f.has("backup")) {
            hosts.add(SpecReader.readHostChild(f, "backup"));
        }
        Vrrp vrrp = readVrrp(f, hosts, 51);
        String scheduler = f.string("scheduler", "wlc");
        if (!SpecReader.SCHEDULERS.contains(scheduler)) {
            f.problems().add(f.field("scheduler"), "unknown IPVS scheduler '" + scheduler + "'",
                    "use one of " + String.join(", ", SpecReader.SCHEDULERS.stream().sorted().toList()));
        }
        int persistence = f.integer("persistence", 0, 0, 86_400);
        Ipv4 mask = SpecReader.readNetmask(f, "persistence_netmask");
        int bits = f.integer("conn_tab_bits", 20, 8, 20);
        Fields t = f.child("timeouts");
        IpvsTimeouts timeouts = new IpvsTimeouts(t.integer("tcp", IpvsTimeouts.KERNEL.tcp(), 1, 86_400 * 7),
                t.integer("tcpfin", IpvsTimeouts.KERNEL.tcpFin(), 1, 86_400),
                t.integer("udp", IpvsTimeouts.KERNEL.udp(), 1, 86_400));
        t.finish();
        boolean inhibit = f.bool("inhibit_on_failure", false);
        Ipv4 sorry = f.address("sorry_server", false);
        boolean sync = f.bool("sync_daemon", false);
        f.finish();
        return new Lvs(vrrp, scheduler, persistence, mask, bits, timeouts, inhibit, sorry, sync);
    }

    /** haproxy: one or two HAProxy nodes and their settings. */
    static Haproxy haproxy(Fields f) {
        List<Host> nodes = f.list("nodes", SpecReader::readHost);
        if (nodes.isEmpty() || nodes.size() > 2) {
            f.problems().add(f.field("nodes"), "lists " + nodes.size() + " node(s)",
                    "list one or two HAProxy nodes (the second becomes the VRRP BACKUP)");
        }
        Vrrp vrrp = readVrrp(f, nodes, 52);
        int threads = f.integer("threads", 2, 1, Haproxy.MAX_THREADS);
        int maxconn = f.integer("maxconn", 20_000, 200, 10_000_000);
        int serverMaxconn = f.integer("server_maxconn", 2_000, 1, 10_000_000);
        String balance = f.string("balance", "roundrobin");
        if (!BALANCES.contains(balance)) {
            f.problems().add(f.field("balance"), "unknown algorithm '" + balance + "'",
                    "use one of " + String.join(", ", BALANCES));
        }
        String reuse = f.string("http_reuse", "safe");
        if (!HTTP_REUSE.contains(reuse)) {
            f.problems().add(f.field("http_reuse"), "unknown mode '" + reuse + "'",
                    "use one of " + String.join(", ", HTTP_REUSE));
        }
        int statsPort = f.integer("stats_port", 8404, 1, 65535);
        String statsBind = f.string("stats_bind", "loopback");
        String auth = f.string("stats_auth", null);
        if (!statsBind.equals("loopback") && !statsBind.equals("node")) {
            f.problems().add(f.field("stats_bind"), "unknown value '" + statsBind + "'",
                    "use loopback (stats only on 127.0.0.1) or node (the node's own address, needs stats_auth)");
        } else if (statsBind.equals("node") && auth == null) {
            f.problems().add(f.field("stats_auth"), "is missing while stats_bind is node: anyone on the network"
                    + " could read the stats page", "add stats_auth: USER:PASSWORD, or use stats_bind: loopback");
        }
        if (auth != null && auth.contains("\\")) {
            f.problems().add(f.field("stats_auth"), "contains '\\', which HAProxy reads as an escape, so the"
                    + " password it checks would not be the one written here", "choose a password without '\\'");
        } else if (auth != null && !AUTH.matcher(auth).matches()) {
            f.problems().add(f.field("stats_auth"), "is not USER:PASSWORD with a password of 8 or more characters",
                    "write stats_auth: admin:<at least 8 characters, no spaces, quotes, '\\', ':' or '#'>");
        }
        boolean http2 = f.bool("http2", false);
        f.finish();
        return new Haproxy(vrrp, threads, maxconn, serverMaxconn, balance, reuse, statsPort,
                statsBind.equals("node"), auth, http2);
    }

    private static Vrrp readVrrp(Fields f, List<Host> hosts, int defaultRouterId) {
        String iface = f.string("interface", "eth0");
        String why = interfaceProblem(iface);
        if (why != null) {
            f.problems().add(f.field("interface"), "'" + iface + "' cannot carry VRRP: " + why,
                    "name the host's network interface, e.g. eth0, bond0 or eth0.100");
        }
        int routerId = f.integer("virtual_router_id", defaultRouterId, 1, 255);
        int advert = f.integer("advert_int", 1, 1, 255);
        // keepalived.conf(5): preempt_delay takes 0 to 1000 seconds; 0 here means nopreempt
        int preemptDelay = f.integer("preempt_delay", 0, 0, 1000);
        return new Vrrp(iface, routerId, hosts.isEmpty() ? null : hosts.get(0), hosts.size() > 1 ? hosts.get(1) : null,
                advert, preemptDelay);
    }

    /**
     * Why the kernel or the generated files could not use the name, or null when it is fine. The kernel refuses
     * "." and ".." (dev_valid_name); "all" and "default" are the sysctl tree's own entries (net.ipv4.conf.all), a
     * leading '-' reads as an option to ip, sysctl and keepalived's own tools, and lo cannot carry VRRP.
     */
    static String interfaceProblem(String iface) {
        if (!IFACE.matcher(iface).matches()) {
            return "use 1-15 letters, digits, '_', '.' or '-'";
        }
        if (iface.equals(".") || iface.equals("..")) {
            return "the kernel refuses the names . and ..";
        }
        if (iface.startsWith("-")) {
            return "a leading '-' is read as an option by ip and sysctl";
        }
        if (iface.equals("all") || iface.equals("default")) {
            return "net.ipv4.conf." + iface + " means every interface (or new ones), not an interface";
        }
        if (iface.equals("lo")) {
            return "keepalived cannot use a loopback interface for VRRP";
        }
        return null;
    }
}
