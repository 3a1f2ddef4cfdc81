/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.lab;

import io.stampede.cluster.sys.ExecResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What the client namespace does: HTTP requests, arping, neighbour lookups and nft counters. */
final class Client {

    private static final Pattern MAC = Pattern.compile("(?i)\\b([0-9a-f]{2}(?::[0-9a-f]{2}){5})\\b");
    private static final Pattern COUNTER = Pattern.compile("counter packets (\\d+).*comment \"([^\"]+)\"");

    private final String iface;

    Client(String iface) {
        this.iface = iface;
    }

    /** Outcome of a batch of requests: how many each server answered, and how many failed. */
    record Tally(Map<String, Integer> byServer, int failed, int total) {

        Tally plus(Tally other) {
            Map<String, Integer> sum = new LinkedHashMap<>(byServer);
            other.byServer.forEach((k, v) -> sum.merge(k, v, Integer::sum));
            return new Tally(sum, failed + other.failed, total + other.total);
        }

        int answered(String server) {
            return byServer.getOrDefault(server, 0);
        }

        @Override
        public String toString() {
            return byServer + (failed > 0 ? ", " + failed + " failed" : "") + " of " + total;
        }
    }

    /** n requests, each on a new connection (Connection: close), so that every one is balanced afresh. */
    Tally requests(String url, int n, double connectTimeoutSeconds) {
        List<String> cmd = new ArrayList<>(List.of("curl", "-s", "-H", "Connection: close", "--connect-timeout",
                String.format(Locale.ROOT, "%.1f", connectTimeoutSeconds), "-m", "3", "-w", "|%{http_code}\\n"));
        for (int i = 0; i < n; i++) {
            cmd.add(url);
        }
        ExecResult r = Namespaces.in(Topology.CLIENT, Duration.ofSeconds(10L + n * 4L), cmd);
        Map<String, Integer> by = new LinkedHashMap<>();
        int failed = 0;
        int seen = 0;
        for (String line : r.stdout().split("\n")) {
            int bar = line.lastIndexOf('|');
            if (bar < 0) {
                continue;
            }
            seen++;
            if (line.substring(bar + 1).equals("200")) {
                by.merge(line.substring(0, bar), 1, Integer::sum);
            } else {
                failed++;
            }
        }
        return new Tally(by, failed + (n - seen), n);
    }

    /** Body of one GET, or "" when it fails. */
    String get(String url) {
        return Namespaces.in(Topology.CLIENT, Duration.ofSeconds(5),
                List.of("curl", "-s", "--connect-timeout", "1", "-m", "3", url)).stdout();
    }

    /** The distinct MAC addresses that answered ARP requests for the address. */
    Set<String> arping(String address) {
        ExecResult r = Namespaces.in(Topology.CLIENT, Duration.ofSeconds(10),
                List.of("arping", "-c", "3", "-i", iface, address));
        Set<String> macs = new LinkedHashSet<>();
        for (String line : r.stdout().split("\n")) {
            if (line.contains("from") || line.contains("reply")) {
                Matcher m = MAC.matcher(line);
                while (m.find()) {
                    macs.add(m.group(1).toLowerCase(Locale.ROOT));
                }
            }
        }
        return macs;
    }

    /** The MAC the client's neighbour table holds for the address, or "" when none. */
    String neighbour(String address) {
        ExecResult r = Namespaces.in(Topology.CLIENT, "ip", "neigh", "show", address, "dev", iface);
        Matcher m = MAC.matcher(r.stdout());
        return m.find() ? m.group(1).toLowerCase(Locale.ROOT) : "";
    }

    /** Loads a watch table; rules carry comments so their counters can be read back by name. */
    void loadTable(String family, String table, String body) throws LabException {
        Namespaces.in(Topology.CLIENT, "nft", "delete", "table", family, table);
        Namespaces.loadNft(Topology.CLIENT, "table " + family + " " + table + " {\n" + body + "\n}\n");
    }

    /** Packet counters of the table's rules, by rule comment. */
    Map<String, Long> counters(String family, String table) {
        ExecResult r = Namespaces.in(Topology.CLIENT, "nft", "list", "table", family, table);
        Map<String, Long> out = new LinkedHashMap<>();
        for (String line : r.stdout().split("\n")) {
            Matcher c = COUNTER.matcher(line);
            if (c.find()) {
                out.put(c.group(2), Long.parseLong(c.group(1)));
            }
        }
        return out;
    }
}
