/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.model;

import java.util.ArrayList;
import java.util.List;

/**
 * One validated cluster description. Exactly one of {@link #lvs()} and {@link #haproxy()} is set: the VIPs are
 * held either by LVS-DR directors or by HAProxy nodes. tls is null when no port is served over TLS.
 */
public record ClusterSpec(String name, List<VirtualService> services, Cidr network, Lvs lvs, Haproxy haproxy,
        List<Realserver> realservers, HealthCheck healthCheck, Nginx nginx, Injectors injectors, int nofileLimit,
        Tls tls) {

    /** fs.nr_open on a fresh kernel: no process may raise its descriptor limit above it. */
    public static final int DEFAULT_NR_OPEN = 1_048_576;
    /** The largest value the kernel accepts for fs.nr_open on 64-bit (sysctl_nr_open_max). */
    public static final int MAX_NR_OPEN = 2_147_483_584;

    public ClusterSpec {
        services = List.copyOf(services);
        realservers = List.copyOf(realservers);
    }

    /** The same description with another director layer (the VM lab renders variants of it). */
    public ClusterSpec withLvs(Lvs other) {
        return new ClusterSpec(name, services, network, other, haproxy, realservers, healthCheck, nginx, injectors,
                nofileLimit, tls);
    }

    /** The first service's VIP: the one the lab probes. */
    public Ipv4 vip() {
        return services.get(0).vip();
    }

    /** Every distinct VIP, in description order: all of them ride the VRRP instance and sit on DR realservers' lo. */
    public List<Ipv4> vips() {
        return services.stream().map(VirtualService::vip).distinct().toList();
    }

    /** Every distinct port of every service, in description order: what a DR realserver's nginx listens on. */
    public List<Integer> ports() {
        return services.stream().flatMap(s -> s.ports().stream()).distinct().toList();
    }

    public boolean isTls(int port) {
        return tls != null && tls.covers(port);
    }

    public boolean isDirectRouting() {
        return lvs != null;
    }

    /** The VRRP pair that holds the VIP, whichever layer it belongs to. */
    public Vrrp vrrp() {
        return lvs != null ? lvs.vrrp() : haproxy.vrrp();
    }

    public int port() {
        return services.get(0).ports().get(0);
    }

    /** Every named host, in a stable order (front to back). */
    public List<Host> allHosts() {
        List<Host> all = new ArrayList<>(vrrp().hosts());
        realservers.forEach(r -> all.add(r.host()));
        all.addAll(injectors.hosts());
        return all;
    }
}
