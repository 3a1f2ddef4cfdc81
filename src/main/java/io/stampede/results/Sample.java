/*
 * Licensed under the Apache License, Version 2.0.
 */
package io.stampede.results;

import java.util.List;

/** The fields of one JTL row that summaries use. */
public record Sample(long timeStamp, long elapsed, String label, String responseCode, String responseMessage,
                     boolean success, int allThreads) {

    static Sample of(JtlHeader h, List<String> f) {
        return new Sample(
                parseLong(f, h.timeStamp()),
                parseLong(f, h.elapsed()),
                field(f, h.label()),
                field(f, h.responseCode()),
                field(f, h.responseMessage()),
                "true".equals(field(f, h.success())),
                (int) parseLong(f, h.allThreads()));
    }

    private static String field(List<String> f, int i) {
        return i >= 0 && i < f.size() ? f.get(i) : "";
    }

    private static long parseLong(List<String> f, int i) {
        String s = field(f, i);
        if (s.isEmpty()) {
            return 0;
        }
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
