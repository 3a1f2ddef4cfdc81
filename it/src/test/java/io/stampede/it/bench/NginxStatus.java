/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * nginx's own count of the requests it has received ({@code stub_status}), read over a plain HTTP/1.0 request to a
 * status server of the same nginx: the same counter for whichever load generator sent them.
 */
record NginxStatus(int port) {
    /** The server block to add to nginx's site: a status page on its own loopback port. */
    static String serverBlock(int port) {
        return "server {\n listen 127.0.0.1:" + port + ";\n location = /status { stub_status; }\n }\n";
    }

    private static final Pattern COUNTERS = Pattern.compile("server accepts handled requests\\s+(\\d+) (\\d+) (\\d+)");

    /** Requests received since nginx started, this reading's own request included. */
    long requests() {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 2000);
            s.setSoTimeout(2000);
            s.getOutputStream().write("GET /status HTTP/1.0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            InputStream in = s.getInputStream();
            String page = new String(in.readAllBytes(), StandardCharsets.US_ASCII);
            Matcher m = COUNTERS.matcher(page);
            if (!m.find()) {
                throw new IllegalStateException("nginx's status page lacks its counters:\n" + page);
            }
            return Long.parseLong(m.group(3));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read nginx's status on port " + port, e);
        }
    }
}
