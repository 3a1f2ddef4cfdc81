/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes the content and the configuration of a private nginx instance into its folder. */
final class NginxFiles {

    private static final String INDEX_HTML = """
            <!DOCTYPE html>
            <html>
            <head>
            <title>Welcome to nginx!</title>
            <style>
            html { color-scheme: light dark; }
            body { width: 35em; margin: 0 auto; font-family: Tahoma, Verdana, Arial, sans-serif; }
            </style>
            </head>
            <body>
            <h1>Welcome to nginx!</h1>
            <p>If you see this page, the nginx web server started by a Stampede test is working.</p>
            <p><em>Thank you for using nginx.</em></p>
            </body>
            </html>
            """;

    private NginxFiles() {
    }

    static void writeContent(Path dir) {
        try {
            Path html = Files.createDirectories(dir.resolve("html"));
            Files.writeString(html.resolve("test.txt"), NginxServer.TEST_TXT, StandardCharsets.US_ASCII);
            Files.writeString(html.resolve("index.html"), INDEX_HTML, StandardCharsets.US_ASCII);
            Files.createDirectories(dir.resolve("temp"));
            Files.createDirectories(dir.resolve("logs"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write nginx's files into " + dir, e);
        }
    }

    static void writeConfig(Path dir, NginxServer.Options options, int port) {
        String temp = dir.resolve("temp").toString();
        String accessLog = options.accessLog()
                ? "log_format stampede '$connection $connection_requests $status $bytes_sent \"$request\"';\n"
                        + "    access_log " + dir.resolve("access.log") + " stampede;"
                : "access_log off;";
        String config = (runsAsRoot() ? "user root;\n" : "")
                // As root without "user root;" the workers would run as nobody and could not read the 0700 folder.
                + "worker_processes " + options.workers() + ";\n"
                + "pid " + dir.resolve("nginx.pid") + ";\n"
                + "error_log " + dir.resolve("error.log") + " warn;\n"
                + "events { worker_connections " + options.workerConnections() + "; }\n"
                + "http {\n"
                + "    " + accessLog + "\n"
                + "    types { text/html html; text/plain txt; }\n"
                + "    default_type application/octet-stream;\n"
                + "    sendfile on;\n"
                + "    tcp_nodelay on;\n"
                // nginx closes a keep-alive connection after 1000 requests by default; load tests must not see that.
                + "    keepalive_requests 100000000;\n"
                + "    keepalive_timeout 300s;\n"
                + "    client_body_temp_path " + temp + "/body;\n"
                + "    proxy_temp_path " + temp + "/proxy;\n"
                + "    fastcgi_temp_path " + temp + "/fastcgi;\n"
                + "    uwsgi_temp_path " + temp + "/uwsgi;\n"
                + "    scgi_temp_path " + temp + "/scgi;\n"
                + "    " + options.httpExtra().replace("$dir", dir.toString()) + "\n"
                + "    server {\n"
                // With several workers, reuseport lets the kernel spread connections evenly over them, so that
                // tens of thousands of held connections stay below each worker's worker_connections.
                + "        listen 127.0.0.1:" + port + " backlog=4096" + (options.workers() > 1 ? " reuseport" : "")
                + ";\n"
                + "        server_name localhost;\n"
                + "        root " + dir.resolve("html") + ";\n"
                + "        index index.html;\n"
                + "        " + options.serverExtra().replace("$dir", dir.toString()) + "\n"
                + "    }\n"
                + "}\n";
        try {
            Files.writeString(dir.resolve("nginx.conf"), config, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + dir.resolve("nginx.conf"), e);
        }
    }

    private static boolean runsAsRoot() {
        try {
            return Files.readAllLines(Path.of("/proc/self/status")).stream()
                    .filter(line -> line.startsWith("Uid:"))
                    .anyMatch(line -> line.split("\\s+")[2].equals("0")); // effective uid
        } catch (IOException e) {
            return false;
        }
    }
}
