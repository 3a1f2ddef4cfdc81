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
import io.stampede.cluster.model.Realserver;
import io.stampede.cluster.model.VirtualService;
import java.util.List;

/**
 * haproxy.cfg for one HAProxy node and its systemd drop-in. maxconn is coherent at every level: global = M,
 * frontend = M - reserve, per server = server_maxconn (excess requests queue in HAProxy, not in nginx), and
 * LimitNOFILE = 2 x M + 1000 because HAProxy refuses to start when it cannot raise its descriptor limit.
 */
public final class HaproxyRenderer {

    public static final String INSTALL = "/etc/haproxy/haproxy.cfg";
    public static final String DROPIN = "/etc/systemd/system/haproxy.service.d/stampede-limits.conf";
    public static final String SOCKET = "/run/haproxy/admin.sock";

    public RenderedFile render(ClusterSpec spec, Host node, Layout layout, String folder) {
        Haproxy ha = spec.haproxy();
        HealthCheck hc = spec.healthCheck();
        String install = layout.path(INSTALL);
        Header header = new Header("haproxy.cfg for HAProxy node " + node.name() + " of cluster " + spec.name()
                + " (maxconn " + ha.maxconn() + ", " + ha.threads() + " threads)", install,
                List.of("haproxy -c -f " + install + " && systemctl reload haproxy",
                        "install stampede-limits.conf first: it raises LimitNOFILE to " + ha.fileDescriptorNeed(),
                        "stats page: http://" + ha.statsAddress(node) + ":" + ha.statsPort() + "/stats"
                                + (ha.statsOnNode() ? " (with stats_auth)" : " (on the node, or through ssh -L)")),
                List.of("restore the previous haproxy.cfg and run systemctl reload haproxy"));
        Text t = new Text();
        t.line("global").indent();
        t.line("user haproxy");
        t.line("group haproxy");
        t.line("nbthread " + ha.threads());
        t.line("maxconn " + ha.maxconn());
        t.line("stats socket " + layout.path(SOCKET) + " mode 660 level admin");
        t.line("stats timeout 30s");
        // info: option httplog writes each request at level info, so "notice" would drop every request log
        t.line("log /dev/log local0 info");
        t.outdent().blank();
        t.line("defaults").indent();
        t.line("mode http");
        t.line("log global");
        t.line("option httplog");
        t.line("option dontlognull");
        t.line("option http-keep-alive");
        // the client's address for nginx's logs: DR keeps it, a proxy replaces it with its own
        t.line("option forwardfor");
        t.line("http-reuse " + ha.httpReuse());
        // a failed connection is retried, the last retry on another server (persistence is broken for it)
        t.line("retries 3");
        t.line("option redispatch");
        // a client that sends its request headers slower than this is cut off (slowloris)
        t.line("timeout http-request 10s");
        t.line("timeout connect 5s");
        t.line("timeout client 30s");
        t.line("timeout server 30s");
        t.line("timeout http-keep-alive 10s");
        t.line("timeout queue 5s");
        t.line("timeout check " + hc.timeoutSeconds() + "s");
        t.line("maxconn " + ha.frontendMaxconn());
        t.outdent().blank();
        t.line("frontend fe_web").indent();
        if (ha.http2() && spec.tls() != null) {
            t.line("# alpn " + Haproxy.ALPN + ": HTTP/2 for TLS clients that offer h2, HTTP/1.1 for the others. On the");
            t.line("# non-SSL binds HAProxy upgrades a connection to HTTP/2 implicitly when it starts with the HTTP/2");
            t.line("# connection preface (h2c with prior knowledge). The backend speaks HTTP/1.1 to nginx.");
        }
        for (VirtualService s : spec.services()) {
            for (int port : s.ports()) {
                String alpn = ha.http2() ? " alpn " + Haproxy.ALPN : "";
                String tls = spec.isTls(port) ? " ssl crt " + layout.path(spec.tls().certificate()) + alpn : "";
                t.line("bind " + s.vip() + ":" + port + tls + " backlog " + spec.nginx().somaxconn());
            }
        }
        if (spec.tls() != null) {
            t.line("http-request set-header X-Forwarded-Proto https if { ssl_fc }");
        }
        t.line("maxconn " + ha.frontendMaxconn());
        t.line("default_backend be_nginx");
        t.outdent().blank();
        t.line("backend be_nginx").indent();
        t.line("# the moment the backend takes the request, in us since the epoch (not %Ts%ms: on a keep-alive");
        t.line("# connection that is the end of the previous response); nginx logs when it began reading it, and");
        t.line("# `stampede blocking-time` prints the difference per realserver");
        t.line("http-request set-header X-Request-Start t=%[date(0,us)]");
        t.line("balance " + ha.balance());
        t.line("fullconn " + ha.frontendMaxconn());
        if (hc.type() == CheckType.HTTP) {
            t.line("option httpchk");
            t.line("http-check send meth GET uri " + hc.path() + " ver HTTP/1.1 hdr Host localhost");
            t.line("http-check expect status " + hc.status());
        }
        t.line("default-server inter " + hc.intervalSeconds() + "s fall " + hc.fall() + " rise " + hc.rise()
                + " maxconn " + ha.serverMaxconn() + " check");
        for (Realserver rs : spec.realservers()) {
            t.line("server " + rs.name() + " " + rs.address() + ":" + rs.port() + " weight " + rs.weight());
        }
        t.outdent().blank();
        t.line("frontend fe_stats").indent();
        t.line("bind " + ha.statsAddress(node) + ":" + ha.statsPort());
        t.line("maxconn " + Haproxy.RESERVED_CONNECTIONS / 2);
        t.line("# answered by HAProxy itself while it runs: keepalived's vrrp_script asks it before holding the VIP");
        t.line("monitor-uri " + Haproxy.MONITOR_URI);
        t.line("stats enable");
        t.line("stats uri /stats");
        t.line("stats refresh 5s");
        if (ha.statsAuth() != null) {
            t.line("stats auth " + ha.statsAuth());
        }
        t.outdent();
        return header.file(folder + "/haproxy.cfg", t.toString());
    }

    public RenderedFile renderDropIn(ClusterSpec spec, Host node, Layout layout, String folder) {
        Haproxy ha = spec.haproxy();
        Header header = new Header("systemd drop-in for haproxy.service on " + node.name()
                + ": descriptors for maxconn " + ha.maxconn() + " (2 x maxconn + 1000)", layout.path(DROPIN),
                List.of("mkdir -p /etc/systemd/system/haproxy.service.d && cp stampede-limits.conf "
                        + "/etc/systemd/system/haproxy.service.d/", "systemctl daemon-reload && systemctl restart"
                        + " haproxy"),
                List.of("rm " + DROPIN + " && systemctl daemon-reload && systemctl restart haproxy"));
        return header.file(folder + "/haproxy.service.d/stampede-limits.conf",
                "[Service]\nLimitNOFILE=" + ha.fileDescriptorNeed() + "\n");
    }
}
