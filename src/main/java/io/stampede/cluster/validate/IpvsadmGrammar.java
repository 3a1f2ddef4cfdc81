/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.validate;

import io.stampede.cluster.model.Ipv4;
import io.stampede.cluster.model.SpecReader;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Checks an ipvsadm-restore file against the grammar ipvsadm-save -n writes (ipvsadm.c, FMT_RULE), because
 * ipvsadm itself cannot even start without IPVS in the kernel:
 * <pre>
 * -A -t|-u VIP:PORT|-f FWMARK -s SCHED [-p SECONDS [-M NETMASK]] [-b FLAGS]
 * -a -t|-u VIP:PORT|-f FWMARK -r RIP[:PORT] -g|-i|-m [-w WEIGHT]
 * </pre>
 * A leading "ipvsadm" word is allowed. Comments are not: `ipvsadm -R` stops at the first '#' line (exit 255, the
 * rest not applied), and Debian's ipvsadm-restore, which skips only lines that start with '#', aborts half-way at
 * an indented comment (exit 255) or a comment after a rule (exit 2), leaving the earlier lines applied.
 */
public final class IpvsadmGrammar {

    private static final Set<String> FLAGS = Set.of("sh-fallback", "sh-port", "mh-fallback", "mh-port",
            "flag-1", "flag-2", "flag-3");

    /** The problems found, each as "line N: ..."; empty when the file is valid. */
    public List<String> check(String text) {
        List<String> problems = new ArrayList<>();
        Map<String, String> methodOf = new HashMap<>();
        Set<String> reals = new HashSet<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            String where = "line " + (i + 1) + ": ";
            if (line.isEmpty()) {
                continue;
            }
            int hash = line.indexOf('#');
            if (hash >= 0) {
                problems.add(where + (hash == 0 ? "comment line" : "comment after a rule") + ": ipvsadm -R"
                        + " stops at it and ipvsadm-restore " + (hash == 0 && lines[i].startsWith("#")
                        ? "skips it, so the file loads with only one of them" : "aborts there half-way")
                        + "; keep comments in a separate README");
                continue;
            }
            List<String> words = new ArrayList<>(List.of(line.split("\\s+")));
            if (words.get(0).equals("ipvsadm")) {
                words.remove(0);
            }
            String error = switch (words.isEmpty() ? "" : words.get(0)) {
                case "-A" -> service(words, methodOf);
                case "-a" -> real(words, methodOf, reals);
                case "-C" -> words.size() == 1 ? null : "-C takes no arguments";
                default -> "expected -A (service) or -a (real server), got '" + words.get(0) + "'";
            };
            if (error != null) {
                problems.add(where + error);
            }
        }
        return problems;
    }

    private static String service(List<String> w, Map<String, String> services) {
        Map<String, String> opts = options(w);
        if (opts == null) {
            return "malformed options in '" + String.join(" ", w) + "'";
        }
        String key = serviceKey(opts);
        if (key == null) {
            return "a service needs one of -t ADDRESS:PORT, -u ADDRESS:PORT or -f FWMARK";
        }
        boolean fwmark = key.startsWith("f ");
        if (fwmark ? !isInt(key.substring(2), 1, 4_294_967_295L) : !validEndpoint(key.substring(2), true)) {
            return "'" + key.substring(2) + "' is not " + (fwmark ? "a firewall mark" : "ADDRESS:PORT");
        }
        String sched = opts.getOrDefault("-s", "wlc");
        if (!SpecReader.SCHEDULERS.contains(sched)) {
            return "unknown scheduler '" + sched + "'";
        }
        if (opts.containsKey("-p") && !isInt(opts.get("-p"), 1, Integer.MAX_VALUE)) {
            return "-p needs a timeout in seconds";
        }
        if (opts.containsKey("-M") && (!opts.containsKey("-p") || Ipv4.parse(opts.get("-M")) == null)) {
            return "-M needs -p and a netmask such as 255.255.255.0";
        }
        if (opts.containsKey("-b")) {
            for (String f : opts.get("-b").split(",")) {
                if (!FLAGS.contains(f) || (f.startsWith("sh-") && !sched.equals("sh"))
                        || (f.startsWith("mh-") && !sched.equals("mh"))) {
                    return "scheduler flag '" + f + "' does not apply to scheduler " + sched;
                }
            }
        }
        for (String k : opts.keySet()) {
            if (!Set.of("-t", "-u", "-f", "-s", "-p", "-M", "-b").contains(k)) {
                return "unexpected option " + k + " on a service line";
            }
        }
        if (services.putIfAbsent(key, sched) != null) {
            return "service " + key.substring(2) + " is defined twice";
        }
        return null;
    }

    private static String real(List<String> w, Map<String, String> services, Set<String> reals) {
        Map<String, String> opts = options(w);
        if (opts == null) {
            return "malformed options in '" + String.join(" ", w) + "'";
        }
        String key = serviceKey(opts);
        if (key == null || !services.containsKey(key)) {
            return "real server for a service not defined by an earlier -A line";
        }
        String real = opts.get("-r");
        if (real == null || !validEndpoint(real, false)) {
            return "-r needs REAL-ADDRESS[:PORT]";
        }
        int methods = 0;
        String method = "-m";
        for (String m : List.of("-g", "-i", "-m")) {
            if (opts.containsKey(m)) {
                methods++;
                method = m;
            }
        }
        if (methods != 1) {
            return "give exactly one forwarding method: -g (DR), -i (tunnel) or -m (NAT)";
        }
        String servicePort = key.substring(key.lastIndexOf(':') + 1);
        if (!method.equals("-m") && !key.startsWith("f ") && real.contains(":")
                && !real.substring(real.indexOf(':') + 1).equals(servicePort)) {
            return "with -g/-i the real server port must equal the service port " + servicePort;
        }
        if (opts.containsKey("-w") && !isInt(opts.get("-w"), 0, 65535)) {
            return "-w needs a weight 0-65535";
        }
        for (String k : opts.keySet()) {
            if (!Set.of("-t", "-u", "-f", "-r", "-g", "-i", "-m", "-w", "-x", "-y").contains(k)) {
                return "unexpected option " + k + " on a real-server line";
            }
        }
        if (!reals.add(key + "/" + real)) {
            return "real server " + real + " is listed twice for " + key.substring(2);
        }
        return null;
    }

    /** Option map of one line (words after the command); flags without value map to "". Null when malformed. */
    private static Map<String, String> options(List<String> w) {
        Map<String, String> opts = new HashMap<>();
        for (int i = 1; i < w.size(); i++) {
            String k = w.get(i);
            if (!k.startsWith("-")) {
                return null;
            }
            boolean flag = Set.of("-g", "-i", "-m").contains(k);
            if (!flag && (i + 1 >= w.size() || w.get(i + 1).startsWith("-"))) {
                return null;
            }
            if (opts.put(k, flag ? "" : w.get(++i)) != null) {
                return null;
            }
        }
        return opts;
    }

    private static String serviceKey(Map<String, String> opts) {
        List<String> given = Stream.of("-t", "-u", "-f").filter(opts::containsKey).toList();
        return given.size() == 1 ? given.get(0).substring(1) + " " + opts.get(given.get(0)) : null;
    }

    private static boolean validEndpoint(String text, boolean portRequired) {
        int colon = text.lastIndexOf(':');
        if (colon < 0) {
            return !portRequired && Ipv4.parse(text) != null;
        }
        return Ipv4.parse(text.substring(0, colon)) != null && isInt(text.substring(colon + 1), 1, 65535);
    }

    private static boolean isInt(String s, long min, long max) {
        if (s == null || !s.matches("\\d{1,10}")) {
            return false;
        }
        long v = Long.parseLong(s);
        return v >= min && v <= max;
    }
}
