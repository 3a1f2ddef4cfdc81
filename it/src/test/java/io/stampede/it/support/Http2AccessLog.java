/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * nginx's access log as the HTTP/2 tests write it: per request the listening port, nginx's connection serial number,
 * {@code $http2} (h2, h2c, or empty for HTTP/1.1), the request's number on its connection and the status. So a test
 * counts on the server's side what went over which connection and which protocol.
 */
public final class Http2AccessLog {
    /** The log_format's fields, for {@code log_format NAME '...';}. */
    public static final String FORMAT = "'$server_port $connection $http2 $connection_requests $status'";

    /** One request as nginx logged it. */
    public record Line(int port, long connection, String http2, long requestOnConnection, String status) {
    }

    private Http2AccessLog() {
    }

    /** The lines of {@code file} for requests to {@code port}, in log order. */
    public static List<Line> read(Path file, int port) throws IOException {
        return Files.readAllLines(file).stream().filter(l -> !l.isBlank()).map(l -> l.split(" ", -1))
                .map(f -> new Line(Integer.parseInt(f[0]), Long.parseLong(f[1]), f[2], Long.parseLong(f[3]), f[4]))
                .filter(l -> l.port() == port).toList();
    }

    /** Requests served per connection, by connection serial. */
    public static Map<Long, Long> perConnection(List<Line> lines) {
        return lines.stream().collect(Collectors.groupingBy(Line::connection, TreeMap::new, Collectors.counting()));
    }
}
