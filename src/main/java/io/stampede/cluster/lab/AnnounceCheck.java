/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.lab;

import io.stampede.cluster.model.Realserver;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Check 2: a realserver that sends from the VIP must still ARP with its own address (tell RIP), otherwise it
 * poisons its neighbours' entry for the VIP. Counted on the client by an nft arp table, per realserver MAC.
 */
final class AnnounceCheck {

    static final String TITLE = "realservers announce with their own address, never the VIP";
    private static final String TABLE = "stl_announce";

    CheckResult run(LabCluster lab) throws LabException {
        StringBuilder rules = new StringBuilder("chain input {\n type filter hook input priority filter; policy accept;\n");
        // Per realserver MAC: the director's own gratuitous ARPs for the VIP are legitimate and not counted.
        for (Realserver rs : lab.spec().realservers()) {
            String mac = lab.macOf(rs.host());
            rules.append(" arp saddr ether ").append(mac).append(" arp saddr ip ").append(rs.address())
                    .append(" counter comment \"").append(rs.name()).append("\"\n");
            rules.append(" arp saddr ether ").append(mac).append(" arp saddr ip ").append(lab.vip())
                    .append(" counter comment \"").append(rs.name()).append("-vip\"\n");
        }
        lab.client().loadTable("arp", TABLE, rules.append("}").toString());
        String client = lab.topology().clientAddress().toString();
        for (Realserver rs : lab.spec().realservers()) {
            String ns = Topology.ns(rs.name());
            Namespaces.in(ns, "ip", "neigh", "flush", "all");
            // A connection from the VIP to the client makes the realserver resolve the client's MAC.
            Namespaces.in(ns, Duration.ofSeconds(5), List.of("curl", "-s", "--interface", lab.vip(),
                    "--connect-timeout", "1", "-m", "2", "http://" + client + ":9/"));
        }
        Map<String, Long> counts = lab.client().counters("arp", TABLE);
        boolean pass = true;
        StringBuilder detail = new StringBuilder();
        for (Realserver rs : lab.spec().realservers()) {
            long own = counts.getOrDefault(rs.name(), 0L);
            long vip = counts.getOrDefault(rs.name() + "-vip", -1L);
            pass &= own > 0 && vip == 0;
            detail.append(rs.name()).append(" (").append(rs.arpMethod()).append("): ").append(own)
                    .append(" ARP request(s) 'tell ").append(rs.address()).append("', ").append(vip)
                    .append(" 'tell ").append(lab.vip()).append("'\n");
        }
        return CheckResult.of(2, TITLE, pass, detail.toString().strip());
    }
}
