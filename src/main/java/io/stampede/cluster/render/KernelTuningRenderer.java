/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.render;

import io.stampede.cluster.model.ArpMethod;
import io.stampede.cluster.model.ClusterSpec;
import io.stampede.cluster.model.Host;
import io.stampede.cluster.model.Injectors;
import io.stampede.cluster.model.Realserver;
import java.util.ArrayList;
import java.util.List;

/** sysctl.d, modprobe.d and limits.d files, one set per host role. */
public final class KernelTuningRenderer {

    public RenderedFile directorSysctl(ClusterSpec spec, Host host, String folder) {
        String iface = spec.vrrp().iface();
        List<String> lines = new ArrayList<>();
        lines.add("# DR only rewrites MAC addresses: no ip_forward; reverse-path filtering must not drop VIP traffic");
        lines.add(Sysctl.line("net.ipv4.conf.all.rp_filter", 0));
        lines.add(Sysctl.line(Sysctl.confKey(iface, "rp_filter"), 0));
        lines.add("# an interface carrying a VIP must not answer ARP for others (keepalived.conf(5), KERNEL SETTINGS)");
        lines.add(Sysctl.line(Sysctl.confKey(iface, "proxy_arp"), 0));
        lines.add("# these keys exist once ip_vs is loaded: modules-load.d/stampede-ip_vs.conf loads it at boot, before");
        lines.add("# systemd-sysctl runs. 1: drop a connection at once when its realserver is removed (not after its");
        lines.add("# timeout), and let a persistent client move on from a quiesced (weight 0) realserver");
        lines.add(Sysctl.line("net.ipv4.vs.expire_nodest_conn", 1));
        lines.add(Sysctl.line("net.ipv4.vs.expire_quiescent_template", 1));
        return sysctlFile("LVS-DR director " + host.name(), "90-stampede-director.conf", folder, lines);
    }

    public RenderedFile directorModprobe(ClusterSpec spec, Host host, String folder) {
        int bits = spec.lvs().connTabBits();
        String install = "/etc/modprobe.d/stampede-ip_vs.conf";
        Header header = new Header("modprobe.d options for ip_vs on director " + host.name() + ": connection hash"
                + " table of 2^" + bits + " buckets (kernel default 2^12)", install,
                List.of("cp stampede-ip_vs.conf /etc/modprobe.d/ && modprobe -r ip_vs && modprobe ip_vs",
                        "(the size is fixed when the module loads; a reboot works too)"),
                List.of("rm " + install + " and reload ip_vs"));
        return header.file(folder + "/modprobe.d/stampede-ip_vs.conf", "options ip_vs conn_tab_bits=" + bits + "\n");
    }

    /** ip_vs at boot, so that the net.ipv4.vs.* keys of the sysctl.d file exist when systemd-sysctl applies it. */
    public RenderedFile directorModulesLoad(Host host, String folder) {
        String install = "/etc/modules-load.d/stampede-ip_vs.conf";
        Header header = new Header("modules-load.d entry for director " + host.name() + ": load ip_vs at boot,"
                + " before systemd-sysctl applies net.ipv4.vs.*", install,
                List.of("cp stampede-ip_vs.conf /etc/modules-load.d/ && modprobe ip_vs"),
                List.of("rm " + install));
        return header.file(folder + "/modules-load.d/stampede-ip_vs.conf", "ip_vs\n");
    }

    public RenderedFile realserverSysctl(ClusterSpec spec, Realserver rs, String folder) {
        List<String> lines = new ArrayList<>();
        if (spec.isDirectRouting() && rs.arpMethod() == ArpMethod.SYSCTL) {
            lines.add("# the VIP sits on lo: never answer ARP for it, announce with the interface's own address");
            lines.add(Sysctl.line("net.ipv4.conf.all.arp_ignore", 1));
            lines.add(Sysctl.line("net.ipv4.conf.all.arp_announce", 2));
        }
        lines.addAll(backlog(spec));
        lines.addAll(nrOpen(spec.nginx().workerRlimitNofile(), "nginx's worker_rlimit_nofile"));
        return sysctlFile("realserver " + rs.name(), "90-stampede-realserver.conf", folder, lines);
    }

    public RenderedFile haproxySysctl(ClusterSpec spec, Host node, String folder) {
        List<String> lines = new ArrayList<>();
        lines.add("# bind the VIP even while the VRRP peer holds it, so a failover needs no HAProxy restart");
        lines.add(Sysctl.line("net.ipv4.ip_nonlocal_bind", 1));
        lines.addAll(backlog(spec));
        lines.add("# HAProxy is a client of the realservers too");
        lines.addAll(ports(spec.injectors()));
        lines.add("# never hand out the stats port as a source port: HAProxy could not bind it on its next start");
        lines.add(Sysctl.line("net.ipv4.ip_local_reserved_ports", spec.haproxy().statsPort()));
        lines.addAll(nrOpen(spec.haproxy().fileDescriptorNeed(), "HAProxy's LimitNOFILE"));
        return sysctlFile("HAProxy node " + node.name(), "90-stampede-haproxy.conf", folder, lines);
    }

    public RenderedFile injectorSysctl(ClusterSpec spec, String name, String folder) {
        List<String> lines = new ArrayList<>(ports(spec.injectors()));
        lines.add("# the JMeter engine's RMI ports stay free for it to listen on (stampede server --port/--rmi-port)");
        lines.add(Sysctl.line("net.ipv4.ip_local_reserved_ports", spec.injectors().rmiPorts().stream()
                .map(String::valueOf).collect(java.util.stream.Collectors.joining(","))));
        lines.addAll(nrOpen(spec.nofileLimit(), "limits.d nofile"));
        lines.addAll(backlog(spec));
        lines.add(Sysctl.line("net.core.netdev_max_backlog", 16384));
        lines.add("# 16 MB socket buffer ceilings for fast links");
        lines.add(Sysctl.line("net.core.rmem_max", 16777216));
        lines.add(Sysctl.line("net.core.wmem_max", 16777216));
        lines.add(Sysctl.line("net.ipv4.tcp_rmem", "4096 131072 16777216"));
        lines.add(Sysctl.line("net.ipv4.tcp_wmem", "4096 16384 16777216"));
        return sysctlFile("load injector " + name, "90-stampede-injector.conf", folder, lines);
    }

    public RenderedFile injectorLimits(ClusterSpec spec, String name, String folder) {
        String install = "/etc/security/limits.d/90-stampede-injector.conf";
        Header header = new Header("open-file limits for load injector " + name + " (JMeter keeps one descriptor"
                + " per connection)", install,
                List.of("cp 90-stampede-injector.conf /etc/security/limits.d/ and log in again (pam_limits)",
                        "services started by systemd need LimitNOFILE=" + spec.nofileLimit() + " instead"),
                List.of("rm " + install));
        int n = spec.nofileLimit();
        return header.file(folder + "/limits.d/90-stampede-injector.conf",
                "*    soft nofile " + n + "\n*    hard nofile " + n + "\nroot soft nofile " + n
                        + "\nroot hard nofile " + n + "\n");
    }

    /**
     * fs.nr_open caps every RLIMIT_NOFILE: above its default (1048576) setrlimit, pam_limits and systemd's
     * LimitNOFILE fail unless it is raised first, which systemd-sysctl does at boot before services start.
     */
    private static List<String> nrOpen(int need, String what) {
        if (need <= ClusterSpec.DEFAULT_NR_OPEN) {
            return List.of();
        }
        return List.of("# " + what + " (" + need + ") is above the kernel's default fs.nr_open of "
                + ClusterSpec.DEFAULT_NR_OPEN, Sysctl.line("fs.nr_open", need));
    }

    private static List<String> backlog(ClusterSpec spec) {
        int somaxconn = spec.nginx().somaxconn();
        return List.of("# accept queues as long as the listen backlog the servers ask for",
                Sysctl.line("net.core.somaxconn", somaxconn), Sysctl.line("net.ipv4.tcp_max_syn_backlog", somaxconn));
    }

    private static List<String> ports(Injectors injectors) {
        return List.of("# TIME_WAIT lasts 60 s: new connections per second to one target <= ports / 60 without reuse",
                Sysctl.line("net.ipv4.ip_local_port_range", injectors.portLow() + " " + injectors.portHigh()),
                "# 1: reuse TIME_WAIT ports for outgoing connections (the kernel default 2 is loopback only)",
                Sysctl.line("net.ipv4.tcp_tw_reuse", 1));
    }

    private static RenderedFile sysctlFile(String who, String fileName, String folder, List<String> lines) {
        String install = "/etc/sysctl.d/" + fileName;
        Header header = new Header("sysctl.d settings for " + who, install,
                List.of("cp " + fileName + " /etc/sysctl.d/ && sysctl -p " + install),
                List.of("rm " + install + "   (values stay until reboot or until set back with sysctl -w)"));
        return header.file(folder + "/sysctl.d/" + fileName, String.join("\n", lines) + "\n");
    }
}
