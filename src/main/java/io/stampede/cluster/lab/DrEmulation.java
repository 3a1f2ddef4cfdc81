/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.lab;

import io.stampede.cluster.model.ClusterSpec;
import io.stampede.cluster.model.Host;
import io.stampede.cluster.model.Realserver;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Stands in for IPVS on a director (the lab kernel may have none): an nft netdev ingress rule that rewrites the
 * destination MAC of VIP traffic to a realserver's and sends the frame back out, exactly what LVS-DR does. The
 * hash over source address and port keeps each TCP connection on one realserver.
 */
final class DrEmulation {

    static final String TABLE = "stl_dr_emulation";

    static String script(ClusterSpec spec, Topology topology, Host director) {
        List<Realserver> live = spec.realservers().stream().filter(r -> r.weight() > 0).toList();
        String map = java.util.stream.IntStream.range(0, live.size())
                .mapToObj(i -> i + " : " + topology.mac(Topology.ns(live.get(i).name())))
                .collect(Collectors.joining(", "));
        String ports = spec.ports().stream().map(String::valueOf).collect(Collectors.joining(", "));
        String own = topology.mac(Topology.ns(director.name()));
        String dev = "\"" + topology.iface() + "\"";
        return "table netdev " + TABLE + " {\n"
                + "  chain ingress {\n"
                + "    type filter hook ingress device " + dev + " priority 0; policy accept;\n"
                + "    ether daddr " + own + " ip daddr " + spec.vip() + " tcp dport { " + ports + " }"
                + " ether saddr set " + own + " ether daddr set jhash ip saddr . tcp sport mod " + live.size()
                + " map { " + map + " } fwd to " + dev + "\n"
                + "  }\n"
                + "}\n";
    }
}
