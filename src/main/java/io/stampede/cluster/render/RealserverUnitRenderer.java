/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.render;

import io.stampede.cluster.model.ArpMethod;
import io.stampede.cluster.model.ClusterSpec;
import io.stampede.cluster.model.Ipv4;
import io.stampede.cluster.model.Realserver;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The realserver's systemd oneshot unit: silence ARP for the VIP first, then put the VIP on lo (the other order
 * would answer ARP for the VIP for a moment); the stop undoes both in reverse order. Every start command can run
 * again without doubling a rule. With the nft and arptables methods the ARP rules live in the nftables ruleset,
 * which nftables.service replaces ("flush ruleset") on reload and empties on stop: the unit is ordered after it,
 * re-applies its rules when nftables.service reloads, restarts with it, and stops with it (the VIP leaves lo
 * rather than being answered for).
 */
public final class RealserverUnitRenderer {

    public static final String UNIT = "stampede-lvs-dr.service";
    public static final String INSTALL = "/etc/systemd/system/" + UNIT;
    public static final String NFT_INSTALL = "/etc/stampede/lvs-dr-arp.nft";
    public static final String NFT_TABLE = "stampede_lvs_dr";

    public RenderedFile render(ClusterSpec spec, Realserver rs, Layout layout, String folder) {
        Header header = new Header("systemd unit for LVS-DR realserver " + rs.name() + " of cluster " + spec.name()
                + ": " + vipWords(spec) + " on lo, ARP suppression by " + rs.arpMethod(), layout.path(INSTALL),
                List.of("cp " + UNIT + " /etc/systemd/system/ && systemctl daemon-reload",
                        "systemctl enable --now " + UNIT),
                List.of("systemctl disable --now " + UNIT + "   (removes the VIP and the ARP rules)",
                        "rm " + INSTALL + " && systemctl daemon-reload"));
        Text t = new Text();
        t.line("[Unit]");
        t.line("Description=LVS-DR realserver " + rs.name() + ": " + vipWords(spec) + " on lo, ARP suppression ("
                + rs.arpMethod() + ")");
        t.line("DefaultDependencies=no");
        boolean inRuleset = rs.arpMethod() != ArpMethod.SYSCTL;
        t.line("After=local-fs.target" + (inRuleset ? " nftables.service" : ""));
        if (inRuleset) {
            t.line("PartOf=nftables.service");
            t.line("ReloadPropagatedFrom=nftables.service");
        }
        t.line("Wants=network-pre.target");
        t.line("Before=network-pre.target nginx.service");
        t.blank();
        t.line("[Service]");
        t.line("Type=oneshot");
        t.line("RemainAfterExit=yes");
        List<String> start = startCommands(spec, rs, layout);
        for (String c : start) {
            t.line("ExecStart=" + c);
        }
        if (inRuleset) {
            for (String c : start) {
                t.line("ExecReload=" + c);
            }
        }
        for (String c : stopCommands(spec, rs)) {
            // "-": a stop must finish even when someone already removed the address or the rule by hand.
            t.line("ExecStop=-" + c);
        }
        t.blank();
        t.line("[Install]");
        t.line("WantedBy=multi-user.target");
        return header.file(folder + "/" + UNIT, t.toString());
    }

    private static List<String> startCommands(ClusterSpec spec, Realserver rs, Layout layout) {
        List<String> c = new ArrayList<>();
        switch (rs.arpMethod()) {
            case SYSCTL -> c.add("/usr/sbin/sysctl -q -w net.ipv4.conf.all.arp_ignore=1"
                    + " net.ipv4.conf.all.arp_announce=2");
            case NFT -> c.add("/usr/sbin/nft -f " + layout.path(NFT_INSTALL));
            case ARPTABLES -> {
                // delete (allowed to fail) then append: a restart or reload leaves exactly one copy of each rule
                for (String rule : arptablesRules(spec, rs)) {
                    c.add("-/usr/sbin/arptables -D " + rule);
                    c.add("/usr/sbin/arptables -A " + rule);
                }
            }
        }
        for (Ipv4 vip : spec.vips()) {
            c.add("/usr/sbin/ip addr replace " + vip + "/32 dev lo");
        }
        return c;
    }

    private static List<String> stopCommands(ClusterSpec spec, Realserver rs) {
        List<String> c = new ArrayList<>();
        for (Ipv4 vip : spec.vips()) {
            c.add("/usr/sbin/ip addr del " + vip + "/32 dev lo");
        }
        if (rs.arpMethod() == ArpMethod.SYSCTL) {
            c.add("/usr/sbin/sysctl -q -w net.ipv4.conf.all.arp_ignore=0 net.ipv4.conf.all.arp_announce=0");
        } else if (rs.arpMethod() == ArpMethod.NFT) {
            c.add("/usr/sbin/nft delete table arp " + NFT_TABLE);
        } else {
            for (String rule : arptablesRules(spec, rs)) {
                c.add("/usr/sbin/arptables -D " + rule);
            }
        }
        return c;
    }

    /** Per VIP: drop ARP requests for it; rewrite the sender address of requests sourced from it to the RIP. */
    private static List<String> arptablesRules(ClusterSpec spec, Realserver rs) {
        List<String> rules = new ArrayList<>();
        for (Ipv4 vip : spec.vips()) {
            rules.add("INPUT -d " + vip + " -j DROP");
            rules.add("OUTPUT -s " + vip + " -j mangle --mangle-ip-s " + rs.address());
        }
        return rules;
    }

    private static String vipWords(ClusterSpec spec) {
        List<Ipv4> vips = spec.vips();
        return vips.size() == 1 ? "VIP " + vips.get(0)
                : "VIPs " + vips.stream().map(Ipv4::toString).collect(Collectors.joining(", "));
    }

    /** One VIP as itself, several as an anonymous nft set. */
    private static String nftVips(ClusterSpec spec) {
        List<Ipv4> vips = spec.vips();
        return vips.size() == 1 ? vips.get(0).toString()
                : "{ " + vips.stream().map(Ipv4::toString).collect(Collectors.joining(", ")) + " }";
    }

    /** The nft arp table the unit loads when the realserver uses the nft method. */
    public RenderedFile renderNft(ClusterSpec spec, Realserver rs, Layout layout, String folder) {
        String install = layout.path(NFT_INSTALL);
        Header header = new Header("nftables arp table for LVS-DR realserver " + rs.name() + ": never answer ARP"
                + " for the " + vipWords(spec) + ", announce with " + rs.address() + " instead", install,
                List.of("loaded by " + UNIT + " (nft -f " + install + "); check with nft -c -f " + install),
                List.of("nft delete table arp " + NFT_TABLE + " && rm " + install));
        Text t = new Text().openReplacedNftTable("arp", NFT_TABLE);
        t.open("chain input");
        t.line("type filter hook input priority filter; policy accept;");
        t.line("arp daddr ip " + nftVips(spec) + " drop");
        t.close();
        t.open("chain output");
        t.line("type filter hook output priority filter; policy accept;");
        t.line("arp saddr ip " + nftVips(spec) + " arp saddr ip set " + rs.address());
        t.close();
        t.close();
        return header.file(folder + "/lvs-dr-arp.nft", t.toString());
    }
}
