/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.users;

import io.stampede.it.support.NginxServer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The server side of plans/virtual-users.jmx, in nginx: /login sets a session cookie (sid = nginx's random request
 * id) and answers a first value, /step/ answers the next value, /anything/ is proxied to httpbin's echo. Each value
 * is "c&lt;connection serial&gt;r&lt;request number on it&gt;", unique in one nginx. Every request of the site is
 * logged with the X-User header the plan sends, the session cookie it carried and the value it was answered, so
 * a test can tell from the server side whose state travelled with which request.
 */
final class StatefulSite {
    static final String LOG = "users.log";

    private StatefulSite() {
    }

    /**
     * nginx options for the site, proxying /anything/ to httpbin on {@code httpbinPort} (none when 0); access log
     * optional.
     */
    static NginxServer.Options options(int httpbinPort, boolean log) {
        String logged = log ? "access_log $dir/" + LOG + " users;" : "access_log off;";
        String http = "log_format users '$http_x_user $uri $cookie_sid $next $request_id $status';"
                // httpbin is the test's echo, not the system under test: its development server accepts from a
                // backlog of 128, so a burst of 2,000 users can have a connection refused or reset before the
                // request was read. The same server listed three times lets nginx try again on such errors
                // (GET only; an answer that was read is never retried).
                + (httpbinPort == 0 ? "" : " upstream httpbin { " + ("server 127.0.0.1:" + httpbinPort
                        + " max_fails=0; ").repeat(3) + "}");
        String next = "set $next \"c${connection}r${connection_requests}\";";
        String server = String.join("\n        ",
                "set $next \"-\";",
                "location = /login { " + next + " add_header Set-Cookie \"sid=$request_id; Path=/\" always; "
                        + "default_type text/plain; " + logged + " return 200 \"next=$next\\n\"; }",
                "location /step/ { " + next + " default_type text/plain; " + logged
                        + " return 200 \"next=$next\\n\"; }",
                httpbinPort == 0 ? ""
                        : "location /anything/ { " + logged + " proxy_next_upstream error timeout http_502;"
                                + " proxy_next_upstream_tries 3; proxy_pass http://httpbin; }");
        return NginxServer.Options.defaults().withSite(http, server);
    }

    /** One logged request. {@code next} is the value the server answered ("-" for /anything/). */
    record Request(String user, String uri, String sid, String next, String requestId, int status) {
        static Request parse(String line) {
            String[] f = line.split(" ");
            if (f.length != 6) {
                throw new IllegalStateException("unexpected log line: " + line);
            }
            return new Request(f[0], f[1], f[2], f[3], f[4], Integer.parseInt(f[5]));
        }
    }

    static List<Request> log(NginxServer nginx) {
        try {
            List<Request> out = new ArrayList<>();
            for (String line : Files.readAllLines(nginx.dir().resolve(LOG))) {
                out.add(Request.parse(line));
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Path logFile(NginxServer nginx) {
        return nginx.dir().resolve(LOG);
    }
}
