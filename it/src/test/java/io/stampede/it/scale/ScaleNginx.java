/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.scale;

import io.stampede.it.support.NginxServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * An nginx for a test inside a network namespace, where {@link NginxServer}'s start (on the
 * host's loopback) cannot reach: one server serving {@code /test.txt}, everything in {@code dir}. Runs as root (the
 * tests do), one worker.
 */
final class ScaleNginx {

    private ScaleNginx() {
    }

    /**
     * Writes html/test.txt and nginx.conf into {@code dir}.
     *
     * @param listen the listen directive's address, e.g. "127.0.0.1:8080"
     * @return the nginx command line for that folder, in the foreground
     */
    static String[] prepare(Path dir, String listen) throws IOException {
        Files.createDirectories(dir.resolve("html"));
        Files.writeString(dir.resolve("html/test.txt"), NginxServer.TEST_TXT);
        Files.writeString(dir.resolve("nginx.conf"), "user root;\nworker_processes 1;\npid " + dir.resolve("pid")
                + ";\nerror_log " + dir.resolve("error.log") + " warn;\nevents { worker_connections 4096; }\n"
                + "http {\n  access_log off;\n  keepalive_timeout 300s;\n  keepalive_requests 100000000;\n"
                + "  client_body_temp_path " + dir + "/body;\n  proxy_temp_path " + dir + "/proxy;\n"
                + "  fastcgi_temp_path " + dir + "/fcgi;\n  uwsgi_temp_path " + dir + "/uwsgi;\n"
                + "  scgi_temp_path " + dir + "/scgi;\n"
                + "  server {\n    listen " + listen + " backlog=4096;\n    root " + dir.resolve("html") + ";\n"
                + "  }\n}\n");
        return new String[] {"/usr/sbin/nginx", "-p", dir + "/", "-e", dir.resolve("error.log").toString(), "-c",
            dir.resolve("nginx.conf").toString(), "-g", "daemon off;"};
    }
}
