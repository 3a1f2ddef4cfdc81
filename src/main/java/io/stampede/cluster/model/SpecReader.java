/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

/** Reads a cluster description (YAML) into a {@link ClusterSpec}, refusing every inconsistency it can see. */
public final class SpecReader {

    /** IPVS schedulers known to ipvsadm 1.31 and keepalived 2.2 (twos needs a recent kernel). */
    public static final Set<String> SCHEDULERS =
            Set.of("rr", "wrr", "lc", "wlc", "lblc", "lblcr", "dh", "sh", "sed", "nq", "fo", "ovf", "mh", "twos");
    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9-]{0,11}");
    private static final Pattern PATH = Pattern.compile("/[A-Za-z0-9._~/%-]*");
    /** A service's persistence (and, when it has persistence, its netmask) comes from directors: by default. */
    private static final int INHERIT = -1;
    private static final Pattern FILE = Pattern.compile("/[A-Za-z0-9._/+-]+");

    public ClusterSpec read(String yamlText) throws SpecException {
        Problems problems = new Problems();
        Object root;
        try {
            LoaderOptions options = new LoaderOptions();
            options.setAllowDuplicateKeys(false);
            root = new Yaml(new SafeConstructor(options)).load(yamlText);
        } catch (YAMLException e) {
            problems.add("(file)", "is not valid YAML: " + e.getMessage().replace('\n', ' '),
                    "fix the YAML syntax at the position shown");
            problems.throwIfAny();
            return null;
        }
        if (root == null) {
            problems.add("(file)", "is empty", "describe at least vip, directors or haproxy, and realservers");
            problems.throwIfAny();
        }
        Fields top = Fields.of("", root, problems);
        ClusterSpec spec = readTop(top, problems);
        top.finish();
        problems.throwIfAny();
        return spec;
    }

    private ClusterSpec readTop(Fields top, Problems problems) {
        String name = top.string("name", "stampede");
        if (!NAME.matcher(name).matches()) {
            problems.add("name", "'" + name + "' is not a usable name",
                    "use 1-12 characters: a lowercase letter, then lowercase letters, digits or '-'");
        }
        boolean hasDirectors = top.has("directors");
        boolean hasHaproxy = top.has("haproxy");
        boolean shorthand = !top.has("services");
        List<VirtualService> drafts;
        if (shorthand) {
            drafts = List.of(new VirtualService(top.address("vip", true), readPorts(top), 0, INHERIT, null));
        } else {
            if (top.has("vip") || top.has("ports")) {
                problems.add("services", "is given together with vip:/ports:",
                        "describe every virtual service under services: and remove the top-level vip: and ports:");
            }
            drafts = top.list("services", f -> readService(f, hasDirectors));
            if (drafts.isEmpty()) {
                problems.add("services", "is empty", "list at least one '- {vip: 10.0.0.100, ports: [80]}'");
            }
        }
        Ipv4 vip = drafts.isEmpty() ? null : drafts.get(0).vip();
        Cidr network = readNetwork(top, vip, problems);
        ArpMethod defaultArp = top.choice("arp_method", ArpMethod.SYSCTL, ArpMethod.class, ArpMethod::parse);
        Lvs lvs = hasDirectors ? FrontLayerReader.lvs(top.child("directors")) : null;
        Haproxy haproxy = hasHaproxy ? FrontLayerReader.haproxy(top.child("haproxy")) : null;
        if (hasDirectors == hasHaproxy) {
            problems.add("directors/haproxy", hasDirectors ? "both layers are described" : "neither layer is described",
                    "give exactly one of directors: (LVS-DR) or haproxy: (HAProxy) in front of the realservers");
        }
        List<VirtualService> services = drafts.stream().map(s -> inherit(s, lvs)).toList();
        List<Integer> ports = services.stream().flatMap(s -> s.ports().stream()).distinct().toList();
        int port = ports.isEmpty() ? 80 : ports.get(0);
        List<Realserver> realservers = top.list("realservers",
                f -> readRealserver(f, port, ports.size(), defaultArp, hasDirectors));
        if (realservers.isEmpty()) {
            problems.add("realservers", "no realserver is listed",
                    "add realservers: with at least one '- {name: web1, address: 10.0.0.11}'");
        }
        HealthCheck health = readHealth(top.child("health_check"));
        Nginx nginx = readNginx(top.child("nginx"));
        Injectors injectors = readInjectors(top.child("injectors"));
        Fields limits = top.child("limits");
        int nofile = limits.integer("nofile", 1_048_576, 1024, Integer.MAX_VALUE);
        if (nofile > ClusterSpec.MAX_NR_OPEN) {
            problems.add("limits.nofile", nofile + " is above the kernel's ceiling for fs.nr_open ("
                    + ClusterSpec.MAX_NR_OPEN + "), so no process can be given that many descriptors",
                    "lower limits.nofile to at most " + ClusterSpec.MAX_NR_OPEN);
        }
        limits.finish();
        Tls tls = top.has("tls") ? readTls(top.child("tls")) : null;
        if (problems.isEmpty()) {
            ClusterSpec spec = new ClusterSpec(name, services, network, lvs, haproxy, realservers, health, nginx,
                    injectors, nofile, tls);
            new SpecRules(spec, shorthand, problems).check();
            return spec;
        }
        return null;
    }

    private static VirtualService inherit(VirtualService s, Lvs lvs) {
        int persistence = s.persistenceSeconds() != INHERIT ? s.persistenceSeconds()
                : lvs == null ? 0 : lvs.persistenceSeconds();
        Ipv4 mask = s.persistenceNetmask() != null || lvs == null || persistence == 0 ? s.persistenceNetmask()
                : lvs.persistenceNetmask();
        return new VirtualService(s.vip(), s.ports(), s.fwmark(), persistence, mask);
    }

    private static VirtualService readService(Fields f, boolean dr) {
        Ipv4 vip = f.address("vip", true);
        List<Integer> ports = readPorts(f);
        int fwmark = f.integer("fwmark", 0, 1, Integer.MAX_VALUE);
        int persistence = f.has("persistence") ? f.integer("persistence", 0, 0, 86_400) : INHERIT;
        Ipv4 mask = readNetmask(f, "persistence_netmask");
        for (String lvsOnly : List.of("fwmark", "persistence", "persistence_netmask")) {
            if (!dr && f.has(lvsOnly)) {
                f.problems().add(f.field(lvsOnly), "only applies to LVS-DR directors (an IPVS service setting)",
                        "remove it, or put the cluster behind directors:");
            }
        }
        return new VirtualService(vip, ports, fwmark, persistence, mask);
    }

    /** A contiguous IPv4 netmask such as 255.255.255.0, or null when absent or refused. */
    static Ipv4 readNetmask(Fields f, String key) {
        Ipv4 mask = f.address(key, false);
        if (mask == null) {
            return null;
        }
        int inverted = ~mask.bits();
        if ((inverted & (inverted + 1)) != 0) {
            f.problems().add(f.field(key), mask + " is not a netmask (its one bits must come first)",
                    "write a mask such as 255.255.255.0 (one persistence entry per /24 of clients)");
            return null;
        }
        return mask;
    }

    /** Whether an absolute path has no empty, "." or ".." segment: the path it spells is the file it names. */
    static boolean isPlainPath(String absolute) {
        for (String segment : absolute.substring(1).split("/", -1)) {
            if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
                return false;
            }
        }
        return true;
    }

    private static String plainForm(String absolute) {
        String normal = java.nio.file.Path.of(absolute).normalize().toString();
        return isPlainPath(normal) ? normal : "such as /etc/ssl/private/site.pem";
    }

    private static Tls readTls(Fields f) {
        String certificate = f.requiredString("certificate", "/etc/ssl/private/site.pem");
        String key = f.string("key", certificate);
        for (String k : List.of("certificate", "key")) {
            String v = k.equals("key") ? key : certificate;
            if (v != null && !FILE.matcher(v).matches()) {
                f.problems().add(f.field(k), "'" + v + "' is not an absolute file path",
                        "write an absolute path without spaces or quotes, e.g. /etc/ssl/private/site.pem");
            } else if (v != null && !isPlainPath(v)) {
                // the lab copies this file to its root + the path as root: a '..' would land outside the lab
                f.problems().add(f.field(k), "'" + v + "' has an empty, '.' or '..' segment, so it does not name"
                        + " the file it seems to", "write the plain path " + plainForm(v));
            }
        }
        List<Integer> ports = f.has("ports") ? readPorts(f) : List.of(443);
        f.finish();
        return new Tls(certificate, key, ports);
    }

    private static List<Integer> readPorts(Fields top) {
        Problems problems = top.problems();
        Object raw = top.raw("ports");
        List<Integer> ports = new ArrayList<>();
        if (raw == null) {
            ports.add(80);
            return ports;
        }
        List<?> items = raw instanceof List<?> l ? l : List.of(raw);
        for (Object item : items) {
            if (item instanceof Integer p && p >= 1 && p <= 65535 && !ports.contains(p)) {
                ports.add(p);
            } else {
                problems.add(top.field("ports"), "'" + item + "' is not a port, or is listed twice",
                        "list distinct TCP ports 1-65535, e.g. ports: [80, 443]");
            }
        }
        if (items.isEmpty()) {
            problems.add(top.field("ports"), "is empty", "list at least one port, e.g. ports: [80]");
        }
        return ports;
    }

    private static Cidr readNetwork(Fields top, Ipv4 vip, Problems problems) {
        String text = top.string("network", null);
        if (text == null) {
            return vip == null ? null : Cidr.around(vip, 24);
        }
        Cidr cidr = Cidr.parse(text);
        if (cidr == null) {
            problems.add("network", "'" + text + "' is not an IPv4 network",
                    "write ADDRESS/PREFIX with a prefix from 8 to 30, e.g. 10.0.0.0/24");
        }
        return cidr;
    }

    static Host readHost(Fields f) {
        String name = f.requiredString("name", "web1");
        if (name != null && !NAME.matcher(name).matches()) {
            f.problems().add(f.field("name"), "'" + name + "' is not a usable host name",
                    "use 1-12 characters: a lowercase letter, then lowercase letters, digits or '-'");
        }
        return new Host(name, f.address("address", true));
    }

    static Host readHostChild(Fields parent, String key) {
        Fields f = parent.child(key);
        Host h = readHost(f);
        f.finish();
        return h;
    }

    private static Realserver readRealserver(Fields f, int port, int portCount, ArpMethod defaultArp, boolean dr) {
        Host host = readHost(f);
        int rsPort = f.integer("port", port, 1, 65535);
        if (dr && f.has("port") && (rsPort != port || portCount > 1)) {
            f.problems().add(f.field("port"), "is " + rsPort + " but LVS-DR forwards packets unchanged, so a"
                    + " realserver answers on the virtual port", portCount > 1
                    ? "remove port: the realserver serves every virtual port"
                    : "set it to " + port + " or remove it");
        }
        int weight = f.integer("weight", 1, 0, 65535);
        if (!dr && weight > Haproxy.MAX_WEIGHT) {
            f.problems().add(f.field("weight"), weight + " is above HAProxy's largest server weight "
                    + Haproxy.MAX_WEIGHT, "use a weight from 0 to " + Haproxy.MAX_WEIGHT
                    + " (only the ratio between servers matters)");
        }
        ArpMethod arp = f.choice("arp_method", defaultArp, ArpMethod.class, ArpMethod::parse);
        if (!dr && f.has("arp_method")) {
            f.problems().add(f.field("arp_method"), "only applies to LVS-DR realservers",
                    "remove it: behind HAProxy the realservers do not hold the VIP");
        }
        return new Realserver(host.name(), host.address(), rsPort, weight, arp);
    }

    private static HealthCheck readHealth(Fields f) {
        CheckType type = f.choice("type", CheckType.HTTP, CheckType.class, CheckType::parse);
        String path = f.string("path", "/health");
        if (!PATH.matcher(path).matches()) {
            f.problems().add(f.field("path"), "'" + path + "' is not a URL path",
                    "start with / and use no spaces or quotes, e.g. /health");
        } else {
            String seen = HealthPath.asNginxSeesIt(path);
            if (seen == null) {
                f.problems().add(f.field("path"), "'" + path + "' is answered 400 by nginx (a .. above / or a % without"
                        + " two hex digits)", "write a plain path such as /health");
            } else if (!seen.equals(path)) {
                f.problems().add(f.field("path"), "'" + path + "' reaches nginx as " + seen + " (nginx merges"
                        + " slashes, resolves . and .. and decodes %XX before matching locations), so the"
                        + " generated location = " + path + " would never match", "write path: " + seen);
            }
        }
        int status = f.integer("status", 200, 100, 599);
        int interval = f.integer("interval", 2, 1, 3600);
        int timeout = f.integer("timeout", 3, 1, 3600);
        int fall = f.integer("fall", 3, 1, 100);
        int rise = f.integer("rise", 2, 1, 100);
        f.finish();
        return new HealthCheck(type, path, status, interval, timeout, fall, rise);
    }

    private static Nginx readNginx(Fields f) {
        String workers = f.string("worker_processes", "auto");
        if (!workers.equals("auto") && !workers.matches("[1-9][0-9]{0,3}")) {
            f.problems().add(f.field("worker_processes"), "'" + workers + "' is neither auto nor a count",
                    "write auto (one per core) or a number such as 8");
        }
        int connections = f.integer("worker_connections", 4096, 64, 1_000_000);
        int requests = f.integer("keepalive_requests", 10_000, 1, 100_000_000);
        int timeout = f.integer("keepalive_timeout", 65, 0, 3600);
        int somaxconn = f.integer("somaxconn", 4096, 128, 1 << 20);
        boolean accessLog = f.bool("access_log", false);
        boolean http2 = f.bool("http2", false);
        f.finish();
        return new Nginx(workers, connections, requests, timeout, somaxconn, accessLog, http2);
    }

    private static Injectors readInjectors(Fields f) {
        List<Host> hosts = f.list("hosts", SpecReader::readHost);
        String range = f.string("port_range", "1024-65535");
        int low = 0;
        int high = 0;
        String[] parts = range.split("[- ]+");
        if (parts.length == 2 && parts[0].matches("\\d{1,5}") && parts[1].matches("\\d{1,5}")) {
            low = Integer.parseInt(parts[0]);
            high = Integer.parseInt(parts[1]);
        }
        if (low < 1024 || high > 65535 || high - low < 1000) {
            f.problems().add(f.field("port_range"), "'" + range + "' is not a usable ephemeral port range",
                    "write LOW-HIGH with 1024 <= LOW, HIGH <= 65535 and at least 1000 ports, e.g. 1024-65535");
        } else if (low % 2 == high % 2) {
            // ip-sysctl.rst: "it is better these numbers have different parity"; connect() takes ports of one
            // parity first and bind(0) the other, so equal parity leaves the two halves unequal
            f.problems().add(f.field("port_range"), "'" + range + "' has two " + (low % 2 == 0 ? "even" : "odd")
                    + " ends; the kernel documentation asks for one even and one odd end",
                    "write " + low + "-" + (high == 65535 ? high - 1 : high + 1) + " (ends of different parity)");
        }
        List<Integer> rmi = new ArrayList<>();
        Object rawRmi = f.raw("rmi_ports");
        List<?> items = rawRmi == null ? List.of(1099) : rawRmi instanceof List<?> l ? l : List.of(rawRmi);
        for (Object item : items) {
            if (item instanceof Integer p && p >= 1 && p <= 65535 && !rmi.contains(p)) {
                rmi.add(p);
            } else {
                f.problems().add(f.field("rmi_ports"), "'" + item + "' is not a port, or is listed twice",
                        "list the JMeter engine's server_port and server.rmi.localport, e.g. rmi_ports: [1099, 1100]");
            }
        }
        f.finish();
        return new Injectors(hosts, low, high, rmi);
    }
}
