/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.doctor;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Lints /etc/sysctl.conf and /etc/sysctl.d/*.conf for settings that no longer exist or do harm; such
 * lines are cargo from old tuning guides, and `sysctl --system` reports them as errors.
 */
final class SysctlFileChecks {

    /** Known bad keys and why; the values say what happened to them. */
    private static final Map<String, String> KNOWN = Map.of(
            "net.ipv4.tcp_tw_recycle", "removed in Linux 4.12: it dropped connections from clients behind NAT;"
                    + " use net.ipv4.tcp_tw_reuse or keep-alive instead",
            "net.ipv4.tcp_low_latency", "has had no effect since Linux 4.14",
            "net.ipv4.netfilter.ip_conntrack_max", "the old conntrack name; the key is net.netfilter.nf_conntrack_max");

    private final Kernel kernel;

    SysctlFileChecks(Kernel kernel) {
        this.kernel = kernel;
    }

    void addTo(Findings out) {
        List<String> files = new ArrayList<>();
        files.add("/etc/sysctl.conf");
        for (String name : kernel.files().list("/etc/sysctl.d")) {
            if (name.endsWith(".conf")) {
                files.add("/etc/sysctl.d/" + name);
            }
        }
        int findings = 0;
        int read = 0;
        for (String file : files) {
            String text = kernel.files().read(file).orElse(null);
            if (text == null) {
                continue;
            }
            read++;
            String[] lines = text.split("\n");
            for (int i = 0; i < lines.length; i++) {
                Check check = lint(file, i + 1, lines[i]);
                if (check != null) {
                    out.add(check);
                    findings++;
                }
            }
        }
        if (findings == 0) {
            out.add(Check.ok("sysctl-files", "sysctl files", read + " file(s), nothing obsolete",
                    "read /etc/sysctl.conf and /etc/sysctl.d/*.conf"));
        }
    }

    private Check lint(String file, int number, String line) {
        String s = line.trim();
        int eq = s.indexOf('=');
        if (s.isEmpty() || s.startsWith("#") || s.startsWith(";") || eq < 0) {
            return null;
        }
        String key = s.substring(0, eq).trim().replace('/', '.');
        if (key.startsWith("-")) {
            key = key.substring(1);
        }
        String where = file + ":" + number;
        List<String> remedy = List.of("delete line " + number + " of " + file + " ('" + s + "')");
        String reason = KNOWN.get(key);
        if (reason != null) {
            return new Check("sysctl-files", "obsolete setting", key + " at " + where, Verdict.WARN, reason, remedy);
        }
        if (!kernel.has(key) && !dependsOnModuleOrInterface(key)) {
            return new Check("sysctl-files", "unknown setting", key + " at " + where, Verdict.WARN,
                    "this kernel has no such key (removed or misspelt); sysctl --system reports an error for it", remedy);
        }
        return null;
    }

    /** Keys that exist only with a module loaded or an interface present; their absence proves nothing. */
    private static boolean dependsOnModuleOrInterface(String key) {
        return key.contains("*") || key.startsWith("net.netfilter.") || key.startsWith("net.nf_conntrack")
                || key.startsWith("net.bridge.") || key.startsWith("net.ipv4.conf.") || key.startsWith("net.ipv6.conf.")
                || key.startsWith("net.ipv4.neigh.") || key.startsWith("net.ipv6.neigh.") || key.startsWith("net.ipv4.vs.")
                || key.startsWith("fs.binfmt_misc.");
    }
}
