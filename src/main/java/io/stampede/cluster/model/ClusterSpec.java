/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.model;

import java.util.ArrayList;
import java.util.List;

/**
 * One validated cluster description. Exactly one of {@link #lvs()} and {@link #haproxy()} is set: the VIP is
 * held either by LVS-DR directors or by HAProxy nodes.
 */
public record ClusterSpec(String name, Ipv4 vip, List<Integer> ports, Cidr network, Lvs lvs, Haproxy haproxy,
        List<Realserver> realservers, HealthCheck healthCheck, Nginx nginx, Injectors injectors, int nofileLimit) {

    /** fs.nr_open on a fresh kernel: no process may raise its descriptor limit above it. */
    public static final int DEFAULT_NR_OPEN = 1_048_576;
    /** The largest value the kernel accepts for fs.nr_open on 64-bit (sysctl_nr_open_max). */
    public static final int MAX_NR_OPEN = 2_147_483_584;

    public ClusterSpec {
        ports = List.copyOf(ports);
        realservers = List.copyOf(realservers);
    }

    public boolean isDirectRouting() {
        return lvs != null;
    }

    /** The VRRP pair that holds the VIP, whichever layer it belongs to. */
    public Vrrp vrrp() {
        return lvs != null ? lvs.vrrp() : haproxy.vrrp();
    }

    public int port() {
        return ports.get(0);
    }

    /** Every named host, in a stable order (front to back). */
    public List<Host> allHosts() {
        List<Host> all = new ArrayList<>(vrrp().hosts());
        realservers.forEach(r -> all.add(r.host()));
        all.addAll(injectors.hosts());
        return all;
    }
}
