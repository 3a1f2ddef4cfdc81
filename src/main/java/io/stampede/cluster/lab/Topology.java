/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.lab;

import io.stampede.cluster.model.ClusterSpec;
import io.stampede.cluster.model.Host;
import io.stampede.cluster.model.Ipv4;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The cluster as namespaces on one bridge: a switch namespace holding the bridge, one namespace per host and one
 * for the client. Each host's NIC carries the interface name of the description (keepalived refers to it).
 */
final class Topology {

    static final String SWITCH = Namespaces.PREFIX + "-sw";
    static final String CLIENT = Namespaces.PREFIX + "-client";
    static final String BRIDGE = Namespaces.PREFIX + "br0";

    private final ClusterSpec spec;
    private final Map<String, String> macs = new LinkedHashMap<>();
    private final Map<String, String> peers = new java.util.HashMap<>();
    private final Ipv4 clientAddress;

    private Topology(ClusterSpec spec, Ipv4 clientAddress) {
        this.spec = spec;
        this.clientAddress = clientAddress;
    }

    static String ns(String host) {
        return Namespaces.PREFIX + "-h-" + host;
    }

    String iface() {
        return spec.vrrp().iface();
    }

    Ipv4 clientAddress() {
        return clientAddress;
    }

    /** The switch-side end of a namespace's link: its egress carries what the switch sends to that host. */
    String switchPort(String nsName) {
        return peers.get(nsName);
    }

    String mac(String nsName) {
        return macs.get(nsName);
    }

    /** Creates every namespace and link; the caller removes them (by prefix) whatever happens. */
    static Topology build(ClusterSpec spec) throws LabException {
        Topology t = new Topology(spec, pickClient(spec));
        Namespaces.ip("netns", "add", SWITCH);
        Namespaces.ip("-n", SWITCH, "link", "add", BRIDGE, "type", "bridge");
        Namespaces.ip("-n", SWITCH, "link", "set", BRIDGE, "up");
        int port = 0;
        List<Host> hosts = new ArrayList<>(spec.vrrp().hosts());
        spec.realservers().forEach(r -> hosts.add(r.host()));
        for (Host h : hosts) {
            t.attach(ns(h.name()), h.address(), port++);
        }
        t.attach(CLIENT, t.clientAddress, port);
        return t;
    }

    private void attach(String ns, Ipv4 address, int index) throws LabException {
        String peer = Namespaces.PREFIX + "p" + index;
        peers.put(ns, peer);
        Namespaces.ip("netns", "add", ns);
        Namespaces.ip("-n", ns, "link", "set", "lo", "up");
        Namespaces.ip("link", "add", iface(), "netns", ns, "type", "veth", "peer", "name", peer, "netns", SWITCH);
        Namespaces.ip("-n", SWITCH, "link", "set", peer, "master", BRIDGE, "up");
        Namespaces.ip("-n", ns, "addr", "add", address + "/" + spec.network().prefix(), "dev", iface());
        Namespaces.ip("-n", ns, "link", "set", iface(), "up");
        String out = Namespaces.ip("-n", ns, "-br", "link", "show", "dev", iface());
        String[] words = out.strip().split("\\s+");
        macs.put(ns, words.length > 2 ? words[2].toLowerCase(java.util.Locale.ROOT) : "");
    }

    /** The first injector inside the network, else the highest free host address of the network. */
    private static Ipv4 pickClient(ClusterSpec spec) {
        for (Host h : spec.injectors().hosts()) {
            if (spec.network().contains(h.address()) && !spec.network().isReserved(h.address())) {
                return h.address();
            }
        }
        List<Ipv4> used = spec.allHosts().stream().map(Host::address).toList();
        int size = 1 << (32 - spec.network().prefix());
        for (int i = size - 2; i > 0; i--) {
            Ipv4 candidate = spec.network().network().plus(i);
            if (!used.contains(candidate) && !spec.vips().contains(candidate)) {
                return candidate;
            }
        }
        return spec.network().network().plus(size - 2);
    }
}
