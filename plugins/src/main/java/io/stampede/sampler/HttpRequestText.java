/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sampler;

import io.stampede.names.PluginNames;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/** Builds an HTTP/1.1 request from the HTTP sampler's fields. */
final class HttpRequestText {
    private HttpRequestText() {
    }

    /** @param defaultPort the scheme's port, left out of the Host header */
    static String build(String method, String host, int port, int defaultPort, String target, String headers,
                        String body, boolean keepAlive) {
        StringBuilder sb = new StringBuilder(128 + headers.length() + body.length());
        sb.append(method).append(' ').append(target).append(" HTTP/1.1\r\n");
        boolean hasHost = false;
        boolean hasLength = false;
        boolean hasConnection = false;
        StringBuilder userHeaders = new StringBuilder();
        for (String line : headers.split("\r\n|\r|\n")) {
            String h = line.strip();
            if (h.isEmpty()) {
                continue;
            }
            int colon = h.indexOf(':');
            if (colon <= 0) {
                throw new IllegalArgumentException(PluginNames.HTTP_HEADERS + ": '" + h + "' is not a header; write one "
                        + "'Name: value' per line");
            }
            String name = h.substring(0, colon).strip().toLowerCase(Locale.ROOT);
            hasHost |= name.equals("host");
            hasLength |= name.equals("content-length");
            hasConnection |= name.equals("connection");
            userHeaders.append(h).append("\r\n");
        }
        if (!hasHost) {
            sb.append("Host: ").append(host.indexOf(':') >= 0 ? '[' + host + ']' : host);
            if (port != defaultPort) {
                sb.append(':').append(port);
            }
            sb.append("\r\n");
        }
        sb.append(userHeaders);
        int bodyLength = body.getBytes(StandardCharsets.UTF_8).length;
        if (!hasLength && (bodyLength > 0 || expectsBody(method))) {
            sb.append("Content-Length: ").append(bodyLength).append("\r\n");
        }
        if (!keepAlive && !hasConnection) {
            sb.append("Connection: close\r\n");
        }
        return sb.append("\r\n").append(body).toString();
    }

    private static boolean expectsBody(String method) {
        return method.equals("POST") || method.equals("PUT") || method.equals("PATCH");
    }
}
