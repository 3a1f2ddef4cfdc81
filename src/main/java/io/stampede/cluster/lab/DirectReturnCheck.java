/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.lab;

import io.stampede.cluster.model.Host;
import io.stampede.cluster.model.Realserver;
import java.util.Map;

/**
 * Check 3: requests to the VIP reach every realserver, and the replies come straight from the realservers' MACs
 * with source address VIP; the director's MAC never carries a reply. Counted by an nft netdev table on the client.
 */
final class DirectReturnCheck {

    static final String TITLE = "requests to the VIP reach every realserver; replies come straight from them, source = VIP";
    private static final String TABLE = "stl_dsr";
    static final int REQUESTS = 30;

    CheckResult run(LabCluster lab) throws LabException {
        String iface = lab.topology().iface();
        StringBuilder rules = new StringBuilder("chain ingress {\n type filter hook ingress device \"" + iface
                + "\" priority 0; policy accept;\n");
        for (Host h : lab.spec().allHosts()) {
            String mac = lab.macOf(h);
            if (mac != null) {
                rules.append(" ether saddr ").append(mac).append(" ip saddr ").append(lab.vip())
                        .append(" tcp sport ").append(lab.spec().port()).append(" counter comment \"")
                        .append(h.name()).append("\"\n");
            }
        }
        lab.client().loadTable("netdev", TABLE, rules.append("}").toString());
        // The emulated director hashes source address and port; a few more rounds (bounded) rule out bad luck.
        Client.Tally tally = lab.client().requests(lab.url(), REQUESTS, 1.0);
        for (int round = 1; round < 3 && !everyoneAnswered(lab, tally); round++) {
            tally = tally.plus(lab.client().requests(lab.url(), REQUESTS, 1.0));
        }
        Map<String, Long> packets = lab.client().counters("netdev", TABLE);
        boolean pass = tally.failed() == 0;
        StringBuilder detail = new StringBuilder(tally.total() + " requests to " + lab.url() + ": " + tally + "\n");
        detail.append("packets from ").append(lab.vip()).append(":").append(lab.spec().port()).append(" by sender MAC: ");
        for (Realserver rs : lab.spec().realservers()) {
            long n = packets.getOrDefault(rs.name(), 0L);
            if (rs.weight() > 0) {
                pass &= tally.answered(rs.name()) > 0 && n > 0;
            }
            detail.append(rs.name()).append(' ').append(n).append(", ");
        }
        for (Host d : lab.spec().vrrp().hosts()) {
            long n = packets.getOrDefault(d.name(), 0L);
            pass &= n == 0;
            detail.append(d.name()).append(" (director) ").append(n).append(", ");
        }
        return CheckResult.of(3, TITLE, pass, detail.substring(0, detail.length() - 2));
    }

    static boolean everyoneAnswered(LabCluster lab, Client.Tally tally) {
        return lab.spec().realservers().stream().filter(r -> r.weight() > 0).allMatch(r -> tally.answered(r.name()) > 0);
    }
}
