/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.model;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * The URI nginx matches locations against (ngx_http_parse_complex_uri with merge_slashes on): %XX decoded,
 * repeated slashes merged, "." and ".." segments resolved. A health path that differs from its own normalised
 * form would be sent as written by keepalived and HAProxy but never match the generated "location =".
 */
final class HealthPath {

    private HealthPath() {
    }

    /**
     * The normalised path, or null when nginx answers 400 Bad Request: ".." climbing above the root, or a '%' not
     * followed by two hex digits.
     */
    static String asNginxSeesIt(String path) {
        String decoded = decode(path);
        if (decoded == null) {
            return null;
        }
        Deque<String> segments = new ArrayDeque<>();
        String[] parts = decoded.split("/", -1);
        for (int i = 1; i < parts.length; i++) {
            String s = parts[i];
            boolean last = i == parts.length - 1;
            if (s.equals("..")) {
                if (segments.isEmpty()) {
                    return null;
                }
                segments.removeLast();
                if (last) {
                    segments.addLast("");
                }
            } else if (s.equals(".") || (s.isEmpty() && !last)) {
                if (last) {
                    segments.addLast("");
                }
            } else {
                segments.addLast(s);
            }
        }
        return "/" + String.join("/", segments);
    }

    private static String decode(String path) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c == '%') {
                if (i + 2 >= path.length() || hex(path.charAt(i + 1)) < 0 || hex(path.charAt(i + 2)) < 0) {
                    return null;
                }
                out.write(hex(path.charAt(i + 1)) * 16 + hex(path.charAt(i + 2)));
                i += 2;
            } else {
                out.write(c);
            }
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    private static int hex(char c) {
        return Character.digit(c, 16);
    }
}
