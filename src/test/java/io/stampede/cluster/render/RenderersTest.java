/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.cluster.Fixtures;
import io.stampede.cluster.model.ClusterSpec;
import io.stampede.cluster.validate.IpvsadmGrammar;
import io.stampede.cluster.validate.SysctlSyntax;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class RenderersTest {

    private static Map<String, String> render(String yaml) {
        return new ClusterRenderer().render(Fixtures.spec(yaml)).stream()
                .collect(Collectors.toMap(RenderedFile::relativePath, RenderedFile::content));
    }

    private static final Map<String, String> LVS = render(Fixtures.LVS);
    private static final Map<String, String> HA = render(Fixtures.HAPROXY);

    @Test
    void oneFolderPerHostUnderItsRole() {
        assertEquals(List.of("director/lvs1/ipvsadm.rules", "director/lvs1/ipvsadm.rules.README",
                "director/lvs1/keepalived.conf",
                "director/lvs1/lvs-director.nft", "director/lvs1/modprobe.d/stampede-ip_vs.conf",
                "director/lvs1/modules-load.d/stampede-ip_vs.conf", "director/lvs1/stampede-lvs-director.service",
                "director/lvs1/sysctl.d/90-stampede-director.conf",
                "director/lvs2/ipvsadm.rules", "director/lvs2/ipvsadm.rules.README", "director/lvs2/keepalived.conf",
                "director/lvs2/lvs-director.nft", "director/lvs2/modprobe.d/stampede-ip_vs.conf",
                "director/lvs2/modules-load.d/stampede-ip_vs.conf", "director/lvs2/stampede-lvs-director.service",
                "director/lvs2/sysctl.d/90-stampede-director.conf",
                "injector/any/limits.d/90-stampede-injector.conf", "injector/any/sysctl.d/90-stampede-injector.conf",
                "realserver/web1/nginx.conf", "realserver/web1/stampede-lvs-dr.service",
                "realserver/web1/sysctl.d/90-stampede-realserver.conf", "realserver/web2/lvs-dr-arp.nft",
                "realserver/web2/nginx.conf", "realserver/web2/stampede-lvs-dr.service",
                "realserver/web2/sysctl.d/90-stampede-realserver.conf", "realserver/web3/nginx.conf",
                "realserver/web3/stampede-lvs-dr.service", "realserver/web3/sysctl.d/90-stampede-realserver.conf"),
                LVS.keySet().stream().sorted().toList());
        assertTrue(HA.containsKey("haproxy/ha2/haproxy.service.d/stampede-limits.conf"));
        assertFalse(HA.keySet().stream().anyMatch(k -> k.startsWith("director/") || k.endsWith(".service")));
    }

    @Test
    void everyFileSaysWhatItIsAndHowToApplyAndRemoveIt() {
        for (Map<String, String> files : List.of(LVS, HA)) {
            files.forEach((name, text) -> {
                if (name.endsWith("/ipvsadm.rules")) {
                    return; // rules only (ipvsadm -R stops at a comment): its header is the sibling README
                }
                assertTrue(text.startsWith("# "), name);
                assertTrue(text.contains("\n# Install as: /"), name);
                assertTrue(text.contains("\n# Apply:  "), name);
                assertTrue(text.contains("\n# Remove: "), name);
            });
        }
    }

    @Test
    void keepalivedUsesCurrentKeywordsAndAUnicastPair() {
        String master = LVS.get("director/lvs1/keepalived.conf");
        String backup = LVS.get("director/lvs2/keepalived.conf");
        assertTrue(master.contains("lvs_sched wlc\n"));
        assertTrue(master.contains("lvs_method DR\n"));
        assertTrue(master.contains("retry 2\n"), "fall 3 = the first failure + 2 retries");
        assertFalse(master.contains("nb_get_retry") || master.contains("lb_algo") || master.contains("lb_kind"));
        assertFalse(master.contains("vrrp_strict"));
        assertTrue(master.contains("state BACKUP\n    nopreempt\n") && master.contains("priority 150\n"),
                "both start as BACKUP with nopreempt: one failure, one failover");
        assertTrue(backup.contains("state BACKUP\n    nopreempt\n") && backup.contains("priority 100\n"));
        assertFalse(master.contains("state MASTER"));
        assertTrue(master.contains("unicast_src_ip 10.0.0.2\n") && master.contains("unicast_peer {\n        10.0.0.3\n"));
        assertTrue(backup.contains("unicast_src_ip 10.0.0.3\n") && backup.contains("unicast_peer {\n        10.0.0.2\n"));
        assertTrue(master.contains("10.0.0.100/32 dev eth0"));
        assertTrue(master.contains("real_server 10.0.0.13 80 {\n        weight 3\n        HTTP_GET {"));
        assertTrue(master.contains("path /health\n") && master.contains("status_code 200\n"));
    }

    @Test
    void keepalivedTcpCheckPersistenceAndLoneMaster() {
        String yaml = Fixtures.LVS.replace("  backup: {name: lvs2, address: 10.0.0.3}\n", "  persistence: 300\n")
                + "health_check: {type: tcp}\n";
        Map<String, String> files = render(yaml);
        String conf = files.get("director/lvs1/keepalived.conf");
        assertTrue(conf.contains("TCP_CHECK {\n            connect_port 80\n"));
        assertFalse(conf.contains("HTTP_GET"));
        assertFalse(conf.contains("unicast_peer"), "no peer to name when there is one director");
        assertTrue(conf.contains("persistence_timeout 300\n"));
        assertTrue(files.get("director/lvs1/ipvsadm.rules").contains("-A -t 10.0.0.100:80 -s wlc -p 300\n"));
        assertFalse(files.containsKey("director/lvs2/keepalived.conf"));
    }

    @Test
    void ipvsadmRulesAreNumericDrAndPassTheGrammar() {
        String rules = LVS.get("director/lvs1/ipvsadm.rules");
        assertTrue(rules.contains("-A -t 10.0.0.100:80 -s wlc\n"));
        assertTrue(rules.contains("-a -t 10.0.0.100:80 -r 10.0.0.11:80 -g -w 1\n"));
        assertTrue(rules.contains("-a -t 10.0.0.100:80 -r 10.0.0.13:80 -g -w 3\n"));
        assertEquals(List.of(), new IpvsadmGrammar().check(rules));
        String two = render(Fixtures.LVS + "ports: [80, 8080]\n").get("director/lvs1/ipvsadm.rules");
        assertTrue(two.contains("-a -t 10.0.0.100:8080 -r 10.0.0.12:8080 -g -w 1\n"));
        assertEquals(List.of(), new IpvsadmGrammar().check(two));
    }

    @Test
    void ipvsadmRulesHoldNoCommentAndTheirReadmeNamesTheTablesOwner() {
        String rules = LVS.get("director/lvs1/ipvsadm.rules");
        assertFalse(rules.contains("#"), rules);
        assertTrue(rules.startsWith("-A -t "), rules);
        String readme = LVS.get("director/lvs1/ipvsadm.rules.README");
        assertTrue(readme.contains("ONE of the two, never both"), readme);
        assertTrue(readme.contains("keepalived (keepalived.conf's virtual_server blocks) is the authoritative owner"));
        assertTrue(readme.contains("ipvsadm-restore starts with ipvsadm -C"), readme);
        assertTrue(readme.contains("ipvsadm -S -n | diff - /etc/ipvsadm.rules"), readme);
        assertTrue(readme.contains("AUTO=\"false\" in /etc/default/ipvsadm"), readme);
    }

    @Test
    void keepalivedRetryCountsTheFirstFailure() {
        // keepalived removes a server after retry+1 failed checks (seen on the real kernel: "failed after 2 retries")
        String conf = render(Fixtures.LVS + "health_check: {fall: 3, interval: 2}\n").get("director/lvs1/keepalived.conf");
        assertTrue(conf.contains("            retry 2\n"), conf);
        assertFalse(conf.contains("retry 3"), conf);
        String once = render(Fixtures.LVS + "health_check: {fall: 1}\n").get("director/lvs1/keepalived.conf");
        assertTrue(once.contains("            retry 0\n"), once);
    }

    @Test
    void sorryServerAndSyncDaemonOnlyWhenDescribed() {
        String plain = LVS.get("director/lvs1/keepalived.conf");
        assertFalse(plain.contains("sorry_server"), plain);
        assertFalse(plain.contains("lvs_sync_daemon"), plain);
        String yaml = Fixtures.LVS.replace("  backup: {name: lvs2, address: 10.0.0.3}\n",
                "  backup: {name: lvs2, address: 10.0.0.3}\n  sorry_server: 10.0.0.20\n  sync_daemon: true\n");
        String conf = render(yaml).get("director/lvs2/keepalived.conf");
        assertTrue(conf.contains("    sorry_server 10.0.0.20 80\n"), conf);
        assertTrue(conf.contains("    lvs_sync_daemon eth0 VI_WEB\n"), conf);
    }

    @Test
    void realserverUnitsSilenceArpBeforeTheVipAppearsAndStopCleanly() {
        String sysctl = LVS.get("realserver/web1/stampede-lvs-dr.service");
        assertTrue(sysctl.indexOf("arp_ignore=1 net.ipv4.conf.all.arp_announce=2")
                < sysctl.indexOf("ExecStart=/usr/sbin/ip addr replace 10.0.0.100/32 dev lo"));
        assertTrue(sysctl.contains("ExecStop=-/usr/sbin/ip addr del 10.0.0.100/32 dev lo\n"));
        assertTrue(sysctl.contains("Type=oneshot\nRemainAfterExit=yes\n"));
        String nft = LVS.get("realserver/web2/stampede-lvs-dr.service");
        assertTrue(nft.contains("ExecStart=/usr/sbin/nft -f /etc/stampede/lvs-dr-arp.nft\n"));
        assertTrue(nft.contains("ExecStop=-/usr/sbin/nft delete table arp stampede_lvs_dr\n"));
        String table = LVS.get("realserver/web2/lvs-dr-arp.nft");
        assertTrue(table.contains("arp daddr ip 10.0.0.100 drop"));
        assertTrue(table.contains("arp saddr ip 10.0.0.100 arp saddr ip set 10.0.0.12"));
        String arptables = LVS.get("realserver/web3/stampede-lvs-dr.service");
        assertTrue(arptables.contains("arptables -A INPUT -d 10.0.0.100 -j DROP\n"));
        assertTrue(arptables.contains("arptables -A OUTPUT -s 10.0.0.100 -j mangle --mangle-ip-s 10.0.0.13\n"));
        assertTrue(arptables.contains("ExecStop=-/usr/sbin/arptables -D INPUT -d 10.0.0.100 -j DROP\n"));
        assertFalse(arptables.contains(" IN ") || arptables.contains(" OUT "));
        assertTrue(LVS.get("realserver/web1/sysctl.d/90-stampede-realserver.conf")
                .contains("net.ipv4.conf.all.arp_ignore = 1\nnet.ipv4.conf.all.arp_announce = 2\n"));
        assertFalse(LVS.get("realserver/web2/sysctl.d/90-stampede-realserver.conf").contains("arp_ignore"));
    }

    @Test
    void nginxDerivesItsLimitsAndAvoidsHarmfulDirectives() {
        String conf = Fixtures.LVS + "nginx: {worker_connections: 10000, somaxconn: 8192}\n";
        String n = render(conf).get("realserver/web1/nginx.conf");
        assertTrue(n.contains("worker_rlimit_nofile 20000;"));
        assertTrue(n.contains("worker_connections 10000;"));
        assertTrue(n.contains("listen 80 reuseport backlog=8192;"));
        assertTrue(n.contains("location = /health {"));
        assertTrue(n.contains("access_log off;"));
        assertFalse(n.contains("accept_mutex") || n.contains("error_log off") || n.contains("http2")
                || n.contains("msie6"));
        assertTrue(render(conf).get("realserver/web1/sysctl.d/90-stampede-realserver.conf")
                .contains("net.core.somaxconn = 8192\n"));
        String ha = HA.get("realserver/web2/nginx.conf");
        assertTrue(ha.contains("listen 8080 reuseport"), "behind HAProxy a realserver serves its own port");
        // Behind HAProxy: the dedicated blocking-time log (stampede blocking-time), and no `access_log off`
        // that would cancel it; LVS-DR has no stamp and keeps logging off.
        assertTrue(ha.contains("log_format blocking 'msec=$msec rt=$request_time xrs=\"$http_x_request_start\" "
                + "server=$server_addr:$server_port';\n"), ha);
        assertTrue(ha.contains("access_log /var/log/nginx/blocking-time.log blocking buffer=64k flush=1s;"), ha);
        assertFalse(ha.contains("access_log off;\n\n"), ha);
        assertFalse(n.contains("blocking"), n);
    }

    @Test
    void nginxPathsFollowTheLayout() {
        ClusterSpec spec = Fixtures.spec(Fixtures.LVS);
        RenderedFile f = new NginxRenderer().render(spec, spec.realservers().get(0), new Layout("/tmp/x"), "r");
        assertTrue(f.content().contains("pid /tmp/x/run/nginx.pid;"));
        assertTrue(f.content().contains("root /tmp/x/var/www/stampede;"));
        assertEquals("/tmp/x/etc/nginx/nginx.conf", f.installPath());
    }

    @Test
    void haproxyMaxconnIsCoherentWithItsDescriptorLimit() {
        String cfg = HA.get("haproxy/ha1/haproxy.cfg");
        assertTrue(cfg.contains("global\n    user haproxy\n    group haproxy\n    nbthread 2\n    maxconn 9000\n"));
        assertTrue(cfg.contains("frontend fe_web\n    bind 10.0.0.100:80 backlog 4096\n    maxconn 8900\n"));
        assertTrue(cfg.contains("default-server inter 2s fall 3 rise 2 maxconn 2000 check"));
        assertTrue(cfg.contains("server web2 10.0.0.12:8080 weight 1"));
        // Stamped in the backend, in µs, when HAProxy takes the request, not %Ts%ms (the end of the previous
        // response on a keep-alive connection), and nowhere in the frontend.
        String backend = cfg.substring(cfg.indexOf("backend be_nginx"));
        assertTrue(backend.contains("http-request set-header X-Request-Start t=%[date(0,us)]\n"), cfg);
        assertFalse(cfg.contains("t=%Ts%ms"), cfg);
        assertTrue(cfg.contains("http-check send meth GET uri /health ver HTTP/1.1 hdr Host localhost"));
        assertTrue(cfg.contains("http-check expect status 200"));
        assertTrue(cfg.contains("option http-keep-alive\n    option forwardfor\n    http-reuse safe\n"));
        assertTrue(cfg.contains("bind 127.0.0.1:8404\n"), "without stats_auth the stats page stays on loopback");
        assertFalse(cfg.contains("stats auth"));
        assertTrue(HA.get("haproxy/ha1/haproxy.service.d/stampede-limits.conf").endsWith("[Service]\nLimitNOFILE=19000\n"));
        String ka = HA.get("haproxy/ha1/keepalived.conf");
        assertTrue(ka.contains("virtual_router_id 52") && !ka.contains("virtual_server"));
        assertTrue(HA.get("haproxy/ha1/sysctl.d/90-stampede-haproxy.conf").contains("net.ipv4.ip_nonlocal_bind = 1\n"));
    }

    @Test
    void kernelTuningPerRole() {
        String injector = LVS.get("injector/any/sysctl.d/90-stampede-injector.conf");
        assertTrue(injector.contains("net.ipv4.ip_local_port_range = 1024 65535\n"));
        assertTrue(injector.contains("net.ipv4.tcp_tw_reuse = 1\n"));
        assertFalse(injector.contains("tcp_tw_recycle"));
        assertTrue(LVS.get("injector/any/limits.d/90-stampede-injector.conf").contains("*    hard nofile 1048576\n"));
        String director = LVS.get("director/lvs1/sysctl.d/90-stampede-director.conf");
        assertTrue(director.contains("net.ipv4.conf.eth0.rp_filter = 0\n"));
        assertTrue(director.contains("\nnet.ipv4.vs.expire_nodest_conn = 1\n"), "applied, not skipped with '-'");
        assertTrue(director.contains("\nnet.ipv4.vs.expire_quiescent_template = 1\n"));
        assertFalse(director.contains("ip_forward ="));
        assertTrue(LVS.get("director/lvs1/modprobe.d/stampede-ip_vs.conf").endsWith("options ip_vs conn_tab_bits=20\n"));
        String vlan = render(Fixtures.LVS.replace("directors:\n", "directors:\n  interface: eth0.100\n"))
                .get("director/lvs1/sysctl.d/90-stampede-director.conf");
        assertTrue(vlan.contains("net/ipv4/conf/eth0.100/rp_filter = 0\n"));
        for (Map<String, String> files : List.of(LVS, HA)) {
            files.forEach((name, text) -> {
                if (name.contains("/sysctl.d/")) {
                    assertEquals(List.of(), new SysctlSyntax().check(text), name);
                }
            });
        }
    }

    @Test
    void injectorFoldersAreNamedAfterTheInjectors() {
        Map<String, String> files = render(Fixtures.LVS + "injectors:\n  hosts:\n    - {name: inj1, address: 10.0.0.50}\n");
        assertTrue(files.containsKey("injector/inj1/sysctl.d/90-stampede-injector.conf"));
        assertFalse(files.keySet().stream().anyMatch(k -> k.startsWith("injector/any/")));
    }

    @Test
    void vrrpHearsOnlyThePeerAndSaysWhyItHasNoAuthentication() {
        for (String ka : List.of(HA.get("haproxy/ha1/keepalived.conf"), LVS.get("director/lvs2/keepalived.conf"))) {
            assertTrue(ka.contains("unicast_peer {\n        10.0.0.") && ka.contains("    }\n    check_unicast_src\n"),
                    "adverts from any address but the peer's are dropped\n" + ka);
            assertTrue(ka.contains("# no authentication block: RFC 3768 removed it from VRRPv2"), ka);
            assertFalse(ka.contains("authentication {"), ka);
        }
    }

    @Test
    void haproxyPairGivesUpTheVipWhenHaproxyDies() {
        String ka = HA.get("haproxy/ha1/keepalived.conf");
        assertTrue(ka.contains("enable_script_security\n    script_user nobody\n"),
                "keepalived -t exits 6 for scripts without script security; the check needs no root");
        assertTrue(ka.contains("vrrp_script chk_haproxy {\n    script \"/usr/bin/curl -fsS -m 3 -o /dev/null"
                + " http://127.0.0.1:8404/haproxy-health\"\n    interval 2\n    timeout 4\n    fall 3\n    rise 2\n"));
        assertTrue(ka.contains("track_script {\n        chk_haproxy\n    }\n"));
        assertTrue(ka.contains("state BACKUP\n    nopreempt\n"), "no double preemption on the HAProxy pair");
        assertTrue(HA.get("haproxy/ha1/haproxy.cfg").contains("monitor-uri /haproxy-health\n"),
                "the URI the script asks is answered by HAProxy itself");
        String lvs = LVS.get("director/lvs1/keepalived.conf");
        assertFalse(lvs.contains("vrrp_script") || lvs.contains("track_script") || lvs.contains("script_user"));
        String delayed = render(Fixtures.HAPROXY.replace("  maxconn: 9000", "  maxconn: 9000\n  preempt_delay: 60"))
                .get("haproxy/ha2/keepalived.conf");
        assertTrue(delayed.contains("state BACKUP\n    preempt_delay 60\n") && !delayed.contains("nopreempt"));
    }

    @Test
    void haproxyLogsRequestsForwardsTheClientAndRetriesElsewhere() {
        String cfg = HA.get("haproxy/ha1/haproxy.cfg");
        assertTrue(cfg.contains("log /dev/log local0 info\n"), "httplog writes at info; notice would drop it");
        assertFalse(cfg.contains("notice"));
        assertTrue(cfg.contains("option forwardfor\n"));
        assertTrue(cfg.contains("timeout http-request 10s\n"));
        assertTrue(cfg.contains("retries 3\n    option redispatch\n"));
        String auth = render(Fixtures.HAPROXY.replace("  maxconn: 9000",
                "  maxconn: 9000\n  stats_bind: node\n  stats_auth: ops:s3cret-pass")).get("haproxy/ha2/haproxy.cfg");
        assertTrue(auth.contains("bind 10.0.0.6:8404\n"));
        assertTrue(auth.contains("stats auth ops:s3cret-pass\n"));
        assertTrue(render(Fixtures.HAPROXY.replace("  maxconn: 9000", "  maxconn: 9000\n  stats_bind: node\n"
                + "  stats_auth: ops:s3cret-pass")).get("haproxy/ha2/keepalived.conf")
                .contains("http://10.0.0.6:8404/haproxy-health"), "the script asks where the stats frontend listens");
    }

    @Test
    void realserverUnitFollowsNftablesAndReappliesItsRulesWithoutDoublingThem() {
        String sysctl = LVS.get("realserver/web1/stampede-lvs-dr.service");
        assertFalse(sysctl.contains("nftables.service"), "sysctl ARP suppression is not in the ruleset");
        for (String name : List.of("realserver/web2/stampede-lvs-dr.service", "realserver/web3/stampede-lvs-dr.service")) {
            String unit = LVS.get(name);
            assertTrue(unit.contains("After=local-fs.target nftables.service\nPartOf=nftables.service\n"
                    + "ReloadPropagatedFrom=nftables.service\n"), name);
            assertEquals(unit.lines().filter(l -> l.startsWith("ExecStart=")).map(l -> l.substring(10)).toList(),
                    unit.lines().filter(l -> l.startsWith("ExecReload=")).map(l -> l.substring(11)).toList(),
                    "a reload of nftables.service re-applies exactly the start commands: " + name);
        }
        String arptables = LVS.get("realserver/web3/stampede-lvs-dr.service");
        assertTrue(arptables.contains("ExecStart=-/usr/sbin/arptables -D INPUT -d 10.0.0.100 -j DROP\n"
                + "ExecStart=/usr/sbin/arptables -A INPUT -d 10.0.0.100 -j DROP\n"));
        assertTrue(arptables.contains("ExecStart=-/usr/sbin/arptables -D OUTPUT -s 10.0.0.100 -j mangle --mangle-ip-s"
                + " 10.0.0.13\nExecStart=/usr/sbin/arptables -A OUTPUT -s 10.0.0.100 -j mangle --mangle-ip-s 10.0.0.13\n"));
    }

    @Test
    void directorsLoadIpvsAtBootUntrackTheVipAndSetIpvsTimeouts() {
        assertTrue(LVS.get("director/lvs1/modules-load.d/stampede-ip_vs.conf").endsWith("\n\nip_vs\n"));
        String unit = LVS.get("director/lvs1/stampede-lvs-director.service");
        assertTrue(unit.contains("After=local-fs.target systemd-modules-load.service nftables.service\n"
                + "PartOf=nftables.service\nReloadPropagatedFrom=nftables.service\n"));
        assertTrue(unit.contains("Before=network-pre.target keepalived.service\n"));
        assertTrue(unit.contains("ExecStart=/usr/sbin/nft -f /etc/stampede/lvs-director.nft\n"
                + "ExecStart=/usr/sbin/ipvsadm --set 900 120 300\nExecReload=/usr/sbin/nft -f /etc/stampede/lvs-director.nft\n"));
        String nft = LVS.get("director/lvs1/lvs-director.nft");
        assertTrue(nft.contains("type filter hook prerouting priority raw; policy accept;\n"
                + "        ip daddr 10.0.0.100 tcp dport { 80 } notrack\n"));
        String ka = LVS.get("director/lvs1/keepalived.conf");
        assertTrue(ka.contains("lvs_timeouts tcp 900 tcpfin 120 udp 300\n"));
        assertTrue(ka.contains("protocol TCP\n    alpha\n"), "realservers start down until their first check");
        assertFalse(ka.contains("inhibit_on_failure"));
        Map<String, String> tuned = render(Fixtures.LVS.replace("directors:\n", "directors:\n  inhibit_on_failure: true\n"
                + "  timeouts: {tcp: 3600, tcpfin: 30, udp: 60}\n"));
        String inhibit = tuned.get("director/lvs2/keepalived.conf");
        assertEquals(3, inhibit.split("inhibit_on_failure", -1).length - 1, "one per real_server");
        assertTrue(inhibit.contains("lvs_timeouts tcp 3600 tcpfin 30 udp 60\n"));
        assertTrue(tuned.get("director/lvs2/stampede-lvs-director.service").contains("ipvsadm --set 3600 30 60\n"));
    }

    @Test
    void reservedPortsAndNrOpenWhereTheLimitsNeedThem() {
        assertTrue(LVS.get("injector/any/sysctl.d/90-stampede-injector.conf")
                .contains("net.ipv4.ip_local_reserved_ports = 1099\n"));
        assertTrue(HA.get("haproxy/ha1/sysctl.d/90-stampede-haproxy.conf")
                .contains("net.ipv4.ip_local_reserved_ports = 8404\n"));
        String rmi = render(Fixtures.LVS + "injectors: {rmi_ports: [1099, 1100]}\n")
                .get("injector/any/sysctl.d/90-stampede-injector.conf");
        assertTrue(rmi.contains("net.ipv4.ip_local_reserved_ports = 1099,1100\n"));
        for (Map<String, String> files : List.of(LVS, HA)) {
            files.forEach((name, text) -> assertFalse(text.contains("fs.nr_open"), name + ": default limits fit"));
        }
        Map<String, String> big = render(Fixtures.HAPROXY.replace("maxconn: 9000", "maxconn: 1000000")
                + "limits: {nofile: 4000000}\nnginx: {worker_connections: 600000}\n");
        assertTrue(big.get("injector/any/sysctl.d/90-stampede-injector.conf").contains("\nfs.nr_open = 4000000\n"));
        assertTrue(big.get("haproxy/ha1/sysctl.d/90-stampede-haproxy.conf").contains("\nfs.nr_open = 2001000\n"));
        assertTrue(big.get("realserver/web1/sysctl.d/90-stampede-realserver.conf").contains("\nfs.nr_open = 1200000\n"));
        big.forEach((name, text) -> {
            if (name.contains("/sysctl.d/")) {
                assertEquals(List.of(), new SysctlSyntax().check(text), name);
            }
        });
    }

    private static final String MULTI = Fixtures.LVS.replace("vip: 10.0.0.100\n", """
            services:
              - {vip: 10.0.0.100, ports: [80, 443], fwmark: 7, persistence: 300, persistence_netmask: 255.255.255.0}
              - {vip: 10.0.0.101, ports: [8080]}
            tls: {certificate: /etc/ssl/private/site.pem}
            """);

    @Test
    void severalServicesAndAFirewallMarkServiceKeep80And443Together() {
        Map<String, String> files = render(MULTI);
        String ka = files.get("director/lvs1/keepalived.conf");
        assertTrue(ka.contains("virtual_ipaddress {\n        10.0.0.100/32 dev eth0\n        10.0.0.101/32 dev eth0\n"));
        assertTrue(ka.contains("virtual_server fwmark 7 {\n    delay_loop 2\n    lvs_sched wlc\n    lvs_method DR\n"
                + "    persistence_timeout 300\n    persistence_granularity 255.255.255.0\n    alpha\n"
                + "    real_server 10.0.0.11 {\n"), "no protocol and no real_server port on a fwmark service");
        assertTrue(ka.contains("            connect_port 80\n"), "the fwmark service is checked on its plain port");
        assertTrue(ka.contains("virtual_server 10.0.0.101 8080 {"));
        assertFalse(ka.contains("virtual_server 10.0.0.100 "), "80 and 443 are one IPVS service");
        String rules = files.get("director/lvs1/ipvsadm.rules");
        assertTrue(rules.contains("-A -f 7 -s wlc -p 300 -M 255.255.255.0\n-a -f 7 -r 10.0.0.11 -g -w 1\n"));
        assertTrue(rules.contains("-A -t 10.0.0.101:8080 -s wlc\n"));
        assertEquals(List.of(), new IpvsadmGrammar().check(rules));
        String nft = files.get("director/lvs1/lvs-director.nft");
        assertTrue(nft.contains("ip daddr 10.0.0.100 tcp dport { 80, 443 } notrack\n"
                + "        ip daddr 10.0.0.100 tcp dport { 80, 443 } meta mark set 7\n"
                + "        ip daddr 10.0.0.101 tcp dport { 8080 } notrack\n"));
        String unit = files.get("realserver/web1/stampede-lvs-dr.service");
        assertTrue(unit.contains("ExecStart=/usr/sbin/ip addr replace 10.0.0.100/32 dev lo\n"
                + "ExecStart=/usr/sbin/ip addr replace 10.0.0.101/32 dev lo\n"));
        assertTrue(unit.contains("ExecStop=-/usr/sbin/ip addr del 10.0.0.101/32 dev lo\n"));
        assertTrue(files.get("realserver/web2/lvs-dr-arp.nft").contains("arp daddr ip { 10.0.0.100, 10.0.0.101 } drop"));
        assertTrue(files.get("realserver/web3/stampede-lvs-dr.service")
                .contains("ExecStart=/usr/sbin/arptables -A INPUT -d 10.0.0.101 -j DROP\n"));
        String nginx = files.get("realserver/web1/nginx.conf");
        assertTrue(nginx.contains("listen 80 reuseport backlog=4096;\n        listen 443 ssl reuseport backlog=4096;\n"
                + "        listen 8080 reuseport backlog=4096;\n        ssl_certificate /etc/ssl/private/site.pem;\n"
                + "        ssl_certificate_key /etc/ssl/private/site.pem;\n"));
    }

    @Test
    void tlsPortsAreCheckedWithSslGetAndTerminatedByHaproxy() {
        String perPort = render(MULTI.replace(", fwmark: 7", "")).get("director/lvs1/keepalived.conf");
        String tls = perPort.substring(perPort.indexOf("virtual_server 10.0.0.100 443"));
        assertTrue(tls.contains("SSL_GET {") && !tls.substring(0, tls.indexOf("virtual_server 10.0.0.101"))
                .contains("HTTP_GET"), "443 is checked over TLS");
        assertTrue(perPort.contains("virtual_server 10.0.0.100 80 {\n    delay_loop 2\n    lvs_sched wlc\n    lvs_method DR\n"
                + "    persistence_timeout 300\n    persistence_granularity 255.255.255.0\n    protocol TCP\n"));
        String ha = render(Fixtures.HAPROXY.replace("vip: 10.0.0.100\n", "vip: 10.0.0.100\nports: [80, 443]\n"
                + "tls: {certificate: /etc/haproxy/site.pem}\n")).get("haproxy/ha1/haproxy.cfg");
        assertTrue(ha.contains("bind 10.0.0.100:443 ssl crt /etc/haproxy/site.pem backlog 4096\n"));
        assertTrue(ha.contains("http-request set-header X-Forwarded-Proto https if { ssl_fc }\n"));
    }

    @Test
    void http2IsOfferedByAlpnOnTheTlsPortsOnly() {
        String nginx = render(MULTI.replace(", fwmark: 7", "") + "nginx: {http2: true}\n").get("realserver/web1/nginx.conf");
        assertTrue(nginx.contains("listen 80 reuseport backlog=4096;\n        listen 443 ssl http2 reuseport backlog=4096;\n"
                + "        listen 8080 reuseport backlog=4096;\n"), nginx);
        assertFalse(render(MULTI).get("realserver/web1/nginx.conf").contains("http2"), "off by default");
        String ha = render(Fixtures.HAPROXY.replace("vip: 10.0.0.100\n", "vip: 10.0.0.100\nports: [80, 443]\n"
                + "tls: {certificate: /etc/haproxy/site.pem}\n").replace("maxconn: 9000", "maxconn: 9000\n  http2: true"))
                .get("haproxy/ha1/haproxy.cfg");
        assertTrue(ha.contains("bind 10.0.0.100:80 backlog 4096\n    bind 10.0.0.100:443 ssl crt /etc/haproxy/site.pem"
                + " alpn h2,http/1.1 backlog 4096\n"), ha);
        assertFalse(render(Fixtures.HAPROXY).get("realserver/web1/nginx.conf").contains("http2"));
    }

    @Test
    void tlsMaterialFollowsTheLayoutSoTheLabCanPutAStandInThere() {
        String nginx = new ClusterRenderer().render(Fixtures.spec(MULTI + "nginx: {http2: true}\n"),
                host -> new Layout("/tmp/lab/" + host)).stream()
                .filter(f -> f.relativePath().equals("realserver/web1/nginx.conf")).findFirst().orElseThrow().content();
        assertTrue(nginx.contains("ssl_certificate /tmp/lab/web1/etc/ssl/private/site.pem;\n"), nginx);
    }
}
