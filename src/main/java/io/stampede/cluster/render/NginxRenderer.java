/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.render;

import io.stampede.cluster.model.CheckType;
import io.stampede.cluster.model.ClusterSpec;
import io.stampede.cluster.model.HealthCheck;
import io.stampede.cluster.model.Nginx;
import io.stampede.cluster.model.Realserver;
import java.util.List;

/**
 * nginx.conf for a realserver, from the seed article's directives, modernised: worker_rlimit_nofile derived as
 * 2 x worker_connections, listen backlog equal to somaxconn with reuseport, no accept_mutex, no error_log off.
 */
public final class NginxRenderer {

    public static final String INSTALL = "/etc/nginx/nginx.conf";
    public static final String DOCROOT = "/var/www/stampede";
    /** The dedicated log of blocking times (HAProxy layer only). */
    public static final String BLOCKING_LOG = "/var/log/nginx/blocking-time.log";

    public RenderedFile render(ClusterSpec spec, Realserver rs, Layout layout, String folder) {
        Nginx n = spec.nginx();
        String install = layout.path(INSTALL);
        Header header = new Header("nginx.conf for realserver " + rs.name() + " of cluster " + spec.name()
                + " (worker_connections " + n.workerConnections() + ", backlog " + n.somaxconn() + ")", install,
                List.of("cp /etc/nginx/nginx.conf /etc/nginx/nginx.conf.orig   (once, to be able to remove this)",
                        "nginx -t -c " + install + " && systemctl reload nginx",
                        "static files go to " + layout.path(DOCROOT)),
                List.of("cp /etc/nginx/nginx.conf.orig /etc/nginx/nginx.conf && systemctl reload nginx"));
        Text t = new Text();
        t.line("user www-data;");
        t.line("worker_processes " + n.workerProcesses() + ";");
        t.line("# at least 2 x worker_connections: a connection may hold a second descriptor (file or upstream)");
        t.line("worker_rlimit_nofile " + n.workerRlimitNofile() + ";");
        t.line("pid " + layout.path("/run/nginx.pid") + ";");
        t.line("# warn, not error: nginx reports descriptor shortages at level warn only");
        t.line("error_log " + layout.path("/var/log/nginx/error.log") + " warn;");
        t.blank();
        t.open("events").line("worker_connections " + n.workerConnections() + ";").close();
        t.blank();
        t.open("http");
        t.line("include /etc/nginx/mime.types;");
        t.line("default_type application/octet-stream;");
        t.line("server_tokens off;");
        t.line("sendfile on;");
        t.line("tcp_nopush on;");
        t.line("tcp_nodelay on;");
        t.line("keepalive_timeout " + n.keepaliveTimeoutSeconds() + "s;");
        t.line("keepalive_requests " + n.keepaliveRequests() + ";");
        t.line("reset_timedout_connection on;");
        t.line("open_file_cache max=10000 inactive=30s;");
        t.line("open_file_cache_valid 60s;");
        t.line("open_file_cache_min_uses 2;");
        t.line("# tiny benchmark bodies: compressing them costs CPU and saves nothing");
        t.line("gzip off;");
        t.line("log_format timing '$remote_addr [$time_local] \"$request\" $status $body_bytes_sent '");
        t.line("                  'rt=$request_time msec=$msec xrs=\"$http_x_request_start\" creq=$connection_requests';");
        boolean stamped = !spec.isDirectRouting();
        if (stamped) {
            // Behind HAProxy every request carries X-Request-Start: t=<us> from the moment HAProxy forwarded it;
            // nginx began reading it at $msec - $request_time. `stampede blocking-time` reads this log. nginx serves
            // files here, so there is no $upstream_connect_time to log.
            t.line("log_format blocking 'msec=$msec rt=$request_time xrs=\"$http_x_request_start\" "
                    + "server=$server_addr:$server_port';");
            t.line("access_log " + layout.path(BLOCKING_LOG) + " blocking buffer=64k flush=1s;");
        }
        if (n.accessLog()) {
            t.line("access_log " + layout.path("/var/log/nginx/access.log") + " timing buffer=64k flush=5s;");
        } else if (!stamped) {
            t.line("access_log off;");
        }
        t.blank();
        t.open("server");
        List<Integer> ports = listenPorts(spec, rs);
        boolean http2 = n.http2() && ports.stream().anyMatch(spec::isTls);
        if (http2) {
            t.line("# http2: offered by ALPN on the TLS ports; nginx 1.25.1 and later write 'http2 on;' instead");
            t.line("# keepalive_requests also ends an HTTP/2 connection (GOAWAY) after that many requests");
        }
        for (int port : ports) {
            String tls = !spec.isTls(port) ? "" : http2 ? " ssl http2" : " ssl";
            t.line("listen " + port + tls + " reuseport backlog=" + n.somaxconn() + ";");
        }
        if (ports.stream().anyMatch(spec::isTls)) {
            t.line("ssl_certificate " + layout.path(spec.tls().certificate()) + ";");
            t.line("ssl_certificate_key " + layout.path(spec.tls().key()) + ";");
        }
        t.line("server_name _;");
        t.line("root " + layout.path(DOCROOT) + ";");
        HealthCheck hc = spec.healthCheck();
        if (hc.type() == CheckType.HTTP) {
            t.open("location = " + hc.path()).line("access_log off;");
            t.line(hc.status() < 300 ? "return " + hc.status() + " \"ok\\n\";" : "return " + hc.status() + ";");
            t.close();
        }
        t.open("location /").line("try_files $uri $uri/ =404;").close();
        t.close();
        t.close();
        return header.file(folder + "/nginx.conf", t.toString());
    }

    /** DR realservers serve every virtual port (TLS ones with TLS); behind HAProxy each serves its own port. */
    private static List<Integer> listenPorts(ClusterSpec spec, Realserver rs) {
        return spec.isDirectRouting() ? spec.ports() : List.of(rs.port());
    }
}
