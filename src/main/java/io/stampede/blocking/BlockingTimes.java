/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.blocking;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.HdrHistogram.Histogram;

/**
 * Blocking time from nginx access logs: the moment nginx began to read a request ($msec - $request_time) minus
 * the moment HAProxy forwarded it (its {@code X-Request-Start: t=<µs since the epoch>} stamp), per realserver.
 * nginx's times have millisecond resolution, so each value is good to about ±1 ms; values below -1 ms mean the
 * two clocks disagree.
 */
public final class BlockingTimes {
    private static final Pattern MSEC = Pattern.compile("(?:^|\\s)msec=(\\d+\\.\\d+)");
    private static final Pattern RT = Pattern.compile("(?:^|\\s)rt=(\\d+\\.\\d+)");
    private static final Pattern XRS = Pattern.compile("(?:^|\\s)xrs=\"?([^\"\\s]*)\"?");
    private static final Pattern SERVER = Pattern.compile("(?:^|\\s)server=(\\S+)");
    private static final Pattern STAMP = Pattern.compile("^t=(\\d{10,16})$");
    /** Below this a value is more than nginx's rounding: the clocks disagree. */
    public static final long NEGATIVE_BEYOND_ROUNDING_US = -1000;

    /** One realserver's values, µs; negatives are counted apart (a histogram holds no negative values). */
    public static final class Server {
        private final Histogram us = new Histogram(3_600_000_000L, 3);
        private long negative;
        private long mostNegativeUs;

        void add(long blockingUs) {
            if (blockingUs < NEGATIVE_BEYOND_ROUNDING_US) {
                negative++;
                mostNegativeUs = Math.min(mostNegativeUs, blockingUs);
            }
            us.recordValue(Math.min(Math.max(blockingUs, 0), 3_600_000_000L));
        }

        public Histogram histogram() {
            return us;
        }

        public long negative() {
            return negative;
        }

        public long mostNegativeUs() {
            return mostNegativeUs;
        }
    }

    private final Map<String, Server> servers = new LinkedHashMap<>();
    private long unstamped;
    private long lines;

    /** Reads access logs; a log with lines but no stamped line at all is refused with the reason. */
    public static BlockingTimes read(List<Path> logs) throws IOException, AccessLogException {
        BlockingTimes b = new BlockingTimes();
        for (Path log : logs) {
            if (!Files.isRegularFile(log)) {
                throw new AccessLogException(log + ": no such file (give nginx access logs written with the "
                        + "rendered `blocking` log_format)");
            }
            long before = b.stamped();
            long linesBefore = b.lines;
            long unstampedBefore = b.unstamped;
            try (BufferedReader in = Files.newBufferedReader(log, StandardCharsets.UTF_8)) {
                String line;
                while ((line = in.readLine()) != null) {
                    if (!line.isBlank()) {
                        b.add(line, log.getFileName().toString());
                    }
                }
            }
            if (b.stamped() == before) {
                long n = b.lines - linesBefore;
                throw new AccessLogException(log + ": " + (n == 0 ? "empty" : "none of its " + n + " lines has "
                        + (b.unstamped - unstampedBefore == n && n > 0 ? "an X-Request-Start stamp (xrs=\"t=...\")"
                        : "the msec=, rt= and xrs= fields"))
                        + ": log with the rendered nginx.conf's `blocking` log_format, behind an HAProxy that "
                        + "stamps X-Request-Start (the rendered haproxy.cfg does)");
            }
        }
        return b;
    }

    void add(String line, String fallbackServer) {
        lines++;
        Matcher msec = MSEC.matcher(line);
        Matcher rt = RT.matcher(line);
        Matcher xrs = XRS.matcher(line);
        if (!msec.find() || !rt.find() || !xrs.find()) {
            return;
        }
        Matcher stamp = STAMP.matcher(xrs.group(1));
        if (!stamp.matches()) {
            unstamped++;
            return;
        }
        long stampUs = toMicros(stamp.group(1));
        long receivedUs = millisText(msec.group(1)) * 1000 - millisText(rt.group(1)) * 1000;
        Matcher server = SERVER.matcher(line);
        String name = server.find() ? server.group(1) : fallbackServer;
        servers.computeIfAbsent(name, k -> new Server()).add(receivedUs - stampUs);
    }

    /** "1700000000.123" -> 1700000000123. */
    private static long millisText(String secondsDotMillis) {
        int dot = secondsDotMillis.indexOf('.');
        String frac = (secondsDotMillis.substring(dot + 1) + "000").substring(0, 3);
        return Long.parseLong(secondsDotMillis.substring(0, dot)) * 1000 + Long.parseLong(frac);
    }

    /** 16 digits are µs (date(0,us)), 13 ms (the older %Ts%ms), 10 s. */
    static long toMicros(String digits) {
        long v = Long.parseLong(digits);
        return switch (digits.length()) {
            case 16 -> v;
            case 13 -> v * 1000;
            case 10 -> v * 1_000_000;
            default -> v * (long) Math.pow(10, 16 - digits.length());
        };
    }

    public Map<String, Server> servers() {
        return servers;
    }

    public long stamped() {
        return servers.values().stream().mapToLong(s -> s.histogram().getTotalCount()).sum();
    }

    public long unstamped() {
        return unstamped;
    }

    public long lines() {
        return lines;
    }
}
