/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.render;

import io.stampede.cluster.model.ClusterSpec;
import io.stampede.cluster.model.Host;
import io.stampede.cluster.model.IpvsTimeouts;
import io.stampede.cluster.model.VirtualService;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The director's own oneshot unit and the nftables table it loads: VIP traffic skips conntrack (IPVS does its own
 * connection tracking; conntrack entries for it only fill nf_conntrack), and the IPVS timeouts are set with
 * ipvsadm --set, which also serves directors run from ipvsadm.rules without keepalived. The table lives in the
 * nftables ruleset, so the unit follows nftables.service as the realserver's unit does: re-applied on its reload,
 * restarted and stopped with it.
 */
public final class DirectorUnitRenderer {

    public static final String UNIT = "stampede-lvs-director.service";
    public static final String INSTALL = "/etc/systemd/system/" + UNIT;
    public static final String NFT_INSTALL = "/etc/stampede/lvs-director.nft";
    public static final String NFT_TABLE = "stampede_lvs";

    public RenderedFile render(ClusterSpec spec, Host director, String folder) {
        IpvsTimeouts to = spec.lvs().timeouts();
        Header header = new Header("systemd unit for LVS-DR director " + director.name() + " of cluster " + spec.name()
                + ": VIP traffic untracked (notrack), IPVS timeouts " + to.tcp() + " " + to.tcpFin() + " "
                + to.udp(), INSTALL,
                List.of("cp " + UNIT + " /etc/systemd/system/ && cp lvs-director.nft " + NFT_INSTALL,
                        "systemctl daemon-reload && systemctl enable --now " + UNIT + "   (before keepalived)"),
                List.of("systemctl disable --now " + UNIT + " && rm " + INSTALL + " " + NFT_INSTALL));
        String load = "/usr/sbin/nft -f " + NFT_INSTALL;
        Text t = new Text();
        t.line("[Unit]");
        t.line("Description=LVS-DR director " + director.name() + ": notrack for the VIP, IPVS timeouts");
        t.line("DefaultDependencies=no");
        // modules-load.d has loaded ip_vs by then, so ipvsadm --set finds it
        t.line("After=local-fs.target systemd-modules-load.service nftables.service");
        t.line("PartOf=nftables.service");
        t.line("ReloadPropagatedFrom=nftables.service");
        t.line("Wants=network-pre.target");
        t.line("Before=network-pre.target keepalived.service");
        t.blank();
        t.line("[Service]");
        t.line("Type=oneshot");
        t.line("RemainAfterExit=yes");
        t.line("ExecStart=" + load);
        t.line("ExecStart=/usr/sbin/ipvsadm --set " + to.tcp() + " " + to.tcpFin() + " " + to.udp());
        t.line("ExecReload=" + load);
        t.line("ExecStop=-/usr/sbin/nft delete table ip " + NFT_TABLE);
        t.blank();
        t.line("[Install]");
        t.line("WantedBy=multi-user.target");
        return header.file(folder + "/" + UNIT, t.toString());
    }

    public RenderedFile renderNft(ClusterSpec spec, Host director, String folder) {
        Header header = new Header("nftables table for LVS-DR director " + director.name() + ": VIP traffic skips"
                + " conntrack" + (spec.services().stream().anyMatch(VirtualService::hasFwmark)
                        ? "; firewall marks for the fwmark services" : ""), NFT_INSTALL,
                List.of("loaded by " + UNIT + " (nft -f " + NFT_INSTALL + "); check with nft -c -f " + NFT_INSTALL),
                List.of("nft delete table ip " + NFT_TABLE + " && rm " + NFT_INSTALL));
        Text t = new Text().openReplacedNftTable("ip", NFT_TABLE);
        t.open("chain prerouting");
        t.line("type filter hook prerouting priority raw; policy accept;");
        for (VirtualService s : spec.services()) {
            String match = "ip daddr " + s.vip() + " tcp dport { "
                    + s.ports().stream().map(String::valueOf).collect(Collectors.joining(", ")) + " }";
            t.line(match + " notrack");
            if (s.hasFwmark()) {
                // IPVS matches "virtual_server fwmark N" / "ipvsadm -A -f N" on this mark
                t.line(match + " meta mark set " + s.fwmark());
            }
        }
        t.close();
        t.close();
        return header.file(folder + "/lvs-director.nft", t.toString());
    }
}
