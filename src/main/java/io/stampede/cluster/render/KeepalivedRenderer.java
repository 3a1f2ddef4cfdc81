/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.render;

import io.stampede.cluster.model.CheckType;
import io.stampede.cluster.model.ClusterSpec;
import io.stampede.cluster.model.Haproxy;
import io.stampede.cluster.model.HealthCheck;
import io.stampede.cluster.model.Host;
import io.stampede.cluster.model.Ipv4;
import io.stampede.cluster.model.IpvsTimeouts;
import io.stampede.cluster.model.Realserver;
import io.stampede.cluster.model.VirtualService;
import io.stampede.cluster.model.Vrrp;
import java.util.List;

/**
 * keepalived.conf for a VIP holder: the VRRP instance (both members start as BACKUP, the preferred one with the
 * higher priority; unicast peers when there are two) and, on LVS-DR directors, one virtual_server per port with
 * current keywords (lvs_sched, lvs_method DR, retry). On HAProxy nodes a vrrp_script asks HAProxy's monitor-uri,
 * so a node whose HAProxy is dead goes to FAULT and gives up the VIP.
 */
public final class KeepalivedRenderer {

    public static final String INSTALL = "/etc/keepalived/keepalived.conf";
    public static final String SCRIPT = "chk_haproxy";
    /** The user keepalived runs the HAProxy check as: unprivileged, and present on every Linux host. */
    public static final String SCRIPT_USER = "nobody";

    public RenderedFile render(ClusterSpec spec, Host host, String folder) {
        Vrrp vrrp = spec.vrrp();
        boolean master = vrrp.isMaster(host);
        String role = spec.isDirectRouting() ? "LVS-DR director" : "HAProxy node";
        Header header = new Header("keepalived.conf for " + role + " " + host.name() + " (VRRP "
                + (master ? "preferred MASTER" : "BACKUP") + ", priority " + vrrp.priorityOf(host) + ") of cluster "
                + spec.name(), INSTALL,
                List.of("keepalived -t -f " + INSTALL + "   (exit 0 and no output = valid)",
                        "systemctl enable --now keepalived && systemctl reload keepalived"),
                List.of("systemctl disable --now keepalived && rm " + INSTALL));
        Text t = new Text();
        t.open("global_defs").line("router_id " + host.name());
        if (spec.isDirectRouting()) {
            IpvsTimeouts to = spec.lvs().timeouts();
            t.line("lvs_timeouts tcp " + to.tcp() + " tcpfin " + to.tcpFin() + " udp " + to.udp());
            if (spec.lvs().syncDaemon()) {
                // the VRRP MASTER sends its connection table to the BACKUP: connections survive a failover
                t.line("lvs_sync_daemon " + spec.vrrp().iface() + " " + instanceName(spec));
            }
        } else {
            // without enable_script_security keepalived -t exits 6. The check only asks HAProxy over HTTP, so it
            // runs as nobody (on every Debian and RHEL host; keepalived's own keepalived_script user would have to
            // be created first, and where it is missing keepalived drops the check and keeps the VIP regardless)
            t.line("# the check needs no privilege: it runs as " + SCRIPT_USER + ", not root. keepalived 2.2.7's"
                    + " config test (keepalived -t,");
            t.line("# Debian 12) is killed ('Terminated', exit 143) when a script runs as another user than root;"
                    + " keepalived's");
            t.line("# issue 2617, fixed in 2.2.8. The daemon runs the script as " + SCRIPT_USER + " all the same.");
            t.line("enable_script_security");
            t.line("script_user " + SCRIPT_USER);
        }
        t.close().blank();
        if (!spec.isDirectRouting()) {
            haproxyScript(t, spec, host);
        }
        vrrpInstance(t, spec, host);
        if (spec.isDirectRouting()) {
            for (VirtualService s : spec.services()) {
                for (int port : s.hasFwmark() ? List.of(0) : s.ports()) {
                    t.blank();
                    virtualServer(t, spec, s, port);
                }
            }
        }
        return header.file(folder + "/keepalived.conf", t.toString());
    }

    private static void vrrpInstance(Text t, ClusterSpec spec, Host host) {
        Vrrp vrrp = spec.vrrp();
        t.open("vrrp_instance " + instanceName(spec));
        // BACKUP on both: keepalived ignores nopreempt after "state MASTER", and with it a recovered node would
        // take the VIP back, a second interruption for one failure
        t.line("state BACKUP");
        if (vrrp.preemptDelaySeconds() == 0) {
            t.line("nopreempt");
        } else {
            t.line("preempt_delay " + vrrp.preemptDelaySeconds());
        }
        t.line("interface " + vrrp.iface());
        t.line("virtual_router_id " + vrrp.routerId());
        t.line("priority " + vrrp.priorityOf(host));
        t.line("advert_int " + vrrp.advertSeconds());
        Host peer = vrrp.peerOf(host);
        t.line("# no authentication block: RFC 3768 removed it from VRRPv2, VRRPv3 (RFC 5798) has none, and");
        t.line("# keepalived's manual calls it non-compliant; auth_type PASS would send its 8 characters in clear.");
        t.line("# Keep VRRP on a segment only the VIP holders can send to (a VLAN of their own, or nftables");
        t.line("# accepting protocol vrrp from the peer's address only).");
        if (peer != null) {
            // Unicast: works where multicast is filtered (clouds, some switches) and keeps the pair explicit.
            t.line("unicast_src_ip " + host.address());
            t.open("unicast_peer").line(peer.address().toString()).close();
            // adverts from any address but the peer's are dropped: another host on the segment cannot take the VIP
            t.line("check_unicast_src");
        }
        t.open("virtual_ipaddress");
        for (Ipv4 vip : spec.vips()) {
            t.line(vip + "/32 dev " + vrrp.iface());
        }
        t.close();
        if (!spec.isDirectRouting()) {
            t.open("track_script").line(SCRIPT).close();
        }
        t.close();
    }

    private static String instanceName(ClusterSpec spec) {
        return "VI_" + spec.name().toUpperCase(java.util.Locale.ROOT).replace('-', '_');
    }

    /** HAProxy's health as keepalived sees it: its monitor-uri answers 200 while HAProxy runs and accepts. */
    private static void haproxyScript(Text t, ClusterSpec spec, Host host) {
        Haproxy ha = spec.haproxy();
        HealthCheck hc = spec.healthCheck();
        String url = "http://" + ha.statsAddress(host) + ":" + ha.statsPort() + Haproxy.MONITOR_URI;
        t.open("vrrp_script " + SCRIPT);
        t.line("script \"/usr/bin/curl -fsS -m " + hc.timeoutSeconds() + " -o /dev/null " + url + "\"");
        t.line("interval " + hc.intervalSeconds());
        t.line("timeout " + (hc.timeoutSeconds() + 1));
        t.line("fall " + hc.fall());
        t.line("rise " + hc.rise());
        t.close().blank();
    }

    /** One IPVS service: VIP and port, or (port 0) every port of a firewall-mark service. */
    private static void virtualServer(Text t, ClusterSpec spec, VirtualService s, int port) {
        HealthCheck hc = spec.healthCheck();
        boolean fwmark = port == 0;
        t.open(fwmark ? "virtual_server fwmark " + s.fwmark() : "virtual_server " + s.vip() + " " + port);
        t.line("delay_loop " + hc.intervalSeconds());
        t.line("lvs_sched " + spec.lvs().scheduler());
        t.line("lvs_method DR");
        if (s.persistenceSeconds() > 0) {
            t.line("persistence_timeout " + s.persistenceSeconds());
            if (s.persistenceNetmask() != null) {
                t.line("persistence_granularity " + s.persistenceNetmask());
            }
        }
        if (!fwmark) {
            // keepalived ignores a protocol on fwmark services, with a warning that fails keepalived -t
            t.line("protocol TCP");
        }
        // alpha: a realserver starts as failed and gets traffic only after its first successful check
        t.line("alpha");
        if (spec.lvs().sorryServer() != null) {
            t.line("sorry_server " + spec.lvs().sorryServer() + (fwmark ? "" : " " + port));
        }
        // a fwmark service is checked on one of its ports: a plain one when there is one
        int checkPort = !fwmark ? port
                : s.ports().stream().filter(p -> !spec.isTls(p)).findFirst().orElse(s.ports().get(0));
        for (Realserver rs : spec.realservers()) {
            // no port on a fwmark real_server: DR delivers each packet to the port it was sent to
            t.open("real_server " + rs.address() + (fwmark ? "" : " " + port));
            t.line("weight " + rs.weight());
            if (spec.lvs().inhibitOnFailure()) {
                // weight 0 instead of removal: the server's existing connections (and persistence) survive
                t.line("inhibit_on_failure");
            }
            if (hc.type() == CheckType.HTTP) {
                t.open(spec.isTls(checkPort) ? "SSL_GET" : "HTTP_GET");
                t.open("url").line("path " + hc.path()).line("status_code " + hc.status()).close();
                if (fwmark) {
                    t.line("connect_port " + checkPort);
                }
            } else {
                t.open("TCP_CHECK");
                t.line("connect_port " + checkPort);
            }
            t.line("connect_timeout " + hc.timeoutSeconds());
            // keepalived's "retry N" removes a server after N+1 failed checks: fall failures mean retry fall-1
            t.line("retry " + (hc.fall() - 1));
            if (hc.rise() > 1) {
                t.line("# rise " + hc.rise() + ": keepalived's checkers have no rise setting; HAProxy's do");
            }
            t.line("delay_before_retry " + hc.intervalSeconds());
            t.close();
            t.close();
        }
        t.close();
    }
}
