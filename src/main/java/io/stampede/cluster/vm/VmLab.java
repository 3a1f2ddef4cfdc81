/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.vm;

import io.stampede.cli.ExitCodes;
import io.stampede.cluster.lab.BlockingTimeShift;
import io.stampede.cluster.model.ClusterSpec;
import io.stampede.cluster.model.HealthCheck;
import io.stampede.cluster.model.Host;
import io.stampede.cluster.model.Ipv4;
import io.stampede.cluster.model.Realserver;
import io.stampede.cluster.render.ClusterRenderer;
import io.stampede.cluster.render.Layout;
import io.stampede.cluster.render.NginxRenderer;
import io.stampede.cluster.render.RenderedFile;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The real-kernel lab: the described LVS-DR cluster inside a guest running Debian's kernel with IPVS, with
 * keepalived programming the real IPVS table from the generated keepalived.conf (no -P), and the generated
 * ipvsadm.rules loaded by the real ipvsadm. Six checks, a to f (see {@link #TITLES}); the guest measures, this
 * class prepares the run and reads the verdicts. A description with HAProxy in front gets the namespace lab's
 * check 7 there instead, both halves: Debian's kernel has sch_netem, which the host's may lack
 * ({@link VmBlockingTime}).
 */
public final class VmLab {

    static final Map<String, String> TITLES = new LinkedHashMap<>();

    static {
        TITLES.put("a", "keepalived's real IPVS table equals ipvsadm.rules (services, scheduler, persistence, -g, weights)");
        TITLES.put("c", "the measured share follows the weights");
        TITLES.put("d", "a realserver whose nginx stops leaves the table within fall/delay, comes back after");
        TITLES.put("f", "the sorry server answers when every realserver is down");
        TITLES.put("b", "ipvsadm -R and ipvsadm-restore both load ipvsadm.rules; loading twice gives the same table");
        TITLES.put("e", "a keep-alive connection across a director failover: kept with lvs_sync_daemon, reset without");
    }

    static final int REQUESTS = 200;
    private static final int LIMIT_SECONDS = 600;

    private final PrintWriter out;

    public VmLab(PrintWriter out) {
        this.out = out;
    }

    /** Exit code: OK every applicable check passed, CHECK_FAILED a check failed or the guest broke off, CANNOT_RUN. */
    public int run(ClusterSpec spec, Path cache) {
        List<String> missing = GuestImage.missingTools();
        if (!missing.isEmpty()) {
            out.println("lab --vm: missing programs: " + String.join(", ", missing)
                    + " (Debian packages: qemu-system-x86 debootstrap kmod cpio)");
            return ExitCodes.CANNOT_RUN;
        }
        if (!"root".equals(System.getProperty("user.name"))) {
            out.println("lab --vm: needs root (debootstrap builds the guest as root)");
            return ExitCodes.CANNOT_RUN;
        }
        GuestImage image;
        try {
            image = GuestImage.obtain(cache, out);
        } catch (IOException | VmException e) {
            out.println("lab --vm: cannot build the guest: " + e.getMessage());
            return ExitCodes.CANNOT_RUN;
        }
        Path top = null;
        try {
            top = GuestRun.newFolder();
            Path run = top.resolve("run");
            prepare(spec, run);
            out.println("lab --vm: booting Debian's kernel under qemu (TCG) with cluster " + spec.name() + ", VIP "
                    + spec.vip() + ", " + spec.realservers().size() + " realservers, "
                    + (spec.isDirectRouting() ? "scheduler " + spec.lvs().scheduler()
                    : "HAProxy on " + spec.vrrp().hosts().size() + " node(s): check 7 (blocking time, netem)"));
            out.flush();
            Map<String, String> verdicts = new LinkedHashMap<>();
            if (spec.isDirectRouting()) {
                GuestRun.Outcome o = GuestRun.boot(image, run, LIMIT_SECONDS, report -> show(report, verdicts));
                return conclude(o, verdicts, TITLES.keySet());
            }
            VmBlockingTime check7 = new VmBlockingTime(weighted(spec), slowRealserver(spec));
            GuestRun.Outcome o = GuestRun.boot(image, run, LIMIT_SECONDS, report -> {
                if (!check7.accept(report)) {
                    show(report, verdicts);
                }
            });
            if (o.ended() && check7.measured()) {
                VmBlockingTime.Verdict v = check7.verdict();
                verdicts.put("7", v.pass() ? "PASS" : "FAIL");
                out.println("check 7 " + verdicts.get("7") + ": " + BlockingTimeShift.TITLE + "\n    "
                        + v.detail().replace("\n", "\n    "));
            }
            return conclude(o, verdicts, Set.of("7"));
        } catch (IOException | VmException e) {
            out.println("lab --vm: " + e.getMessage());
            return ExitCodes.CHECK_FAILED;
        } finally {
            if (top != null) {
                GuestImage.deleteQuietly(top);
            }
            out.flush();
        }
    }

    private void show(String report, Map<String, String> verdicts) {
        String[] w = report.split(" ", 4);
        if (w[0].equals("CHECK") && w.length == 4) {
            verdicts.put(w[1], w[2]);
            out.println("check " + w[1] + " " + w[2] + ": " + TITLES.getOrDefault(w[1], "") + "\n    " + w[3]);
        } else if (!report.equals("END")) {
            out.println("vm: " + report);
        }
        out.flush();
    }

    private int conclude(GuestRun.Outcome o, Map<String, String> verdicts, Set<String> expected) {
        long failed = verdicts.values().stream().filter("FAIL"::equals).count();
        long passed = verdicts.values().stream().filter("PASS"::equals).count();
        Set<String> absent = new HashSet<>(expected);
        absent.removeAll(verdicts.keySet());
        out.println("lab --vm: " + passed + " passed, " + failed + " failed, "
                + (verdicts.size() - passed - failed) + " not applicable; guest ran " + o.millis() / 100 / 10.0
                + " s (qemu exit " + o.qemuExit() + ")");
        if (!o.ended() || !absent.isEmpty()) {
            out.println("lab --vm: the guest stopped before it finished (no verdict for "
                    + absent.stream().sorted().collect(Collectors.joining(", ")) + "); its last console lines:");
            o.tail().forEach(l -> out.println("  | " + l));
            return ExitCodes.CHECK_FAILED;
        }
        return failed == 0 ? ExitCodes.OK : ExitCodes.CHECK_FAILED;
    }

    /** Writes the run's files: each host's generated files at their installation paths under h/HOST, etc. */
    static void prepare(ClusterSpec spec, Path run) throws IOException {
        ClusterRenderer renderer = new ClusterRenderer();
        Files.createDirectories(run);
        for (RenderedFile f : renderer.render(spec, host -> layout(run, host))) {
            String host = f.relativePath().split("/")[1];
            Layout layout = layout(run, host);
            String install = f.installPath();
            write(Path.of(install.startsWith(layout.root()) ? install : layout.path(install)), f.content());
        }
        for (Realserver rs : spec.realservers()) {
            Layout layout = layout(run, rs.name());
            write(Path.of(layout.path(NginxRenderer.DOCROOT), "index.html"), rs.name());
            Files.createDirectories(Path.of(layout.path("/var/log/nginx")));
            Files.createDirectories(Path.of(layout.path("/run")));
        }
        for (RenderedFile f : renderer.render(spec)) {
            write(run.resolve("rendered").resolve(f.relativePath()), f.content());
        }
        for (Host h : spec.vrrp().hosts()) {
            Files.createDirectories(Path.of(layout(run, h.name()).path("/run/haproxy")));
        }
        write(run.resolve("run.env"), environment(spec, spec.isDirectRouting() ? "lab" : "haproxy"));
        if (!spec.isDirectRouting()) {
            return;
        }
        for (boolean sync : List.of(true, false)) {
            ClusterSpec variant = spec.withLvs(spec.lvs().withSyncDaemon(sync));
            for (RenderedFile f : renderer.render(variant)) {
                if (f.relativePath().endsWith("/keepalived.conf")) {
                    write(run.resolve("variants").resolve(sync ? "sync" : "nosync")
                            .resolve(f.relativePath().split("/")[1]).resolve("keepalived.conf"), f.content());
                }
            }
        }
    }

    /** The realservers HAProxy sends requests to (weight > 0), in the description's order. */
    static List<String> weighted(ClusterSpec spec) {
        return spec.realservers().stream().filter(r -> r.weight() > 0).map(Realserver::name).toList();
    }

    /** Check 7 delays the link towards the last realserver that takes requests, as the namespace lab does. */
    static String slowRealserver(ClusterSpec spec) {
        List<String> w = weighted(spec);
        return w.get(w.size() - 1);
    }

    static String environment(ClusterSpec spec, String mode) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("MODE", mode);
        env.put("GUEST_LIMIT", String.valueOf(LIMIT_SECONDS - 20));
        env.put("VIP", spec.vip().toString());
        env.put("PORT", String.valueOf(spec.port()));
        env.put("IFACE", spec.vrrp().iface());
        env.put("PREFIX", String.valueOf(spec.network().prefix()));
        env.put("CLIENT", clientAddress(spec).toString());
        env.put("DIRECTORS", spec.vrrp().hosts().stream().map(Host::name).collect(Collectors.joining(" ")));
        env.put("MASTER", spec.vrrp().master().name());
        env.put("BACKUP", spec.vrrp().backup() == null ? "" : spec.vrrp().backup().name());
        env.put("REALSERVERS", spec.realservers().stream().map(Realserver::name).collect(Collectors.joining(" ")));
        for (Host h : spec.vrrp().hosts()) {
            env.put("ADDR_" + var(h.name()), h.address().toString());
        }
        for (Realserver rs : spec.realservers()) {
            env.put("ADDR_" + var(rs.name()), rs.address().toString());
            env.put("WEIGHT_" + var(rs.name()), String.valueOf(rs.weight()));
        }
        if (!spec.isDirectRouting()) {
            // check 7 only: behind HAProxy a realserver may listen on a port of its own
            for (Realserver rs : spec.realservers()) {
                env.put("PORT_" + var(rs.name()), String.valueOf(rs.port()));
            }
            env.put("WEIGHTED", String.join(" ", weighted(spec)));
            env.put("SLOW", slowRealserver(spec));
            env.put("BLOG", NginxRenderer.BLOCKING_LOG);
            env.put("REQUESTS", String.valueOf(VmBlockingTime.REQUESTS));
            env.put("SORRY", "");
            return shell(env);
        }
        HealthCheck hc = spec.healthCheck();
        env.put("SORRY", spec.lvs().sorryServer() == null ? "" : spec.lvs().sorryServer().toString());
        env.put("SCHED", spec.lvs().scheduler());
        env.put("PERSISTENCE", String.valueOf(spec.lvs().persistenceSeconds()));
        env.put("INTERVAL", String.valueOf(hc.intervalSeconds()));
        env.put("FALL", String.valueOf(hc.fall()));
        env.put("REQUESTS", String.valueOf(REQUESTS));
        // keepalived: the first failure at the next check (<= delay_loop), then fall-1 retries delay_before_retry
        // apart (the renderer sets it to the interval); 1 s for the guest's own pace
        env.put("PROMISE_DOWN", String.valueOf(hc.intervalSeconds() * hc.fall() + 1));
        // keepalived re-adds a server after its checks succeed again: two checks in the runs measured here
        env.put("PROMISE_UP", String.valueOf(2 * hc.intervalSeconds() + 1));
        // debugging aids: run only some checks (STAMPEDE_VM_CHECKS="a d"), print the guest's diagnostics
        String only = System.getenv("STAMPEDE_VM_CHECKS");
        if (only != null && only.matches("[a-f ]+")) {
            env.put("CHECKS", only);
        }
        if (System.getenv("STAMPEDE_VM_DEBUG") != null) {
            env.put("STL_DEBUG", "1");
        }
        return shell(env);
    }

    private static String shell(Map<String, String> env) {
        return env.entrySet().stream().map(e -> e.getKey() + "='" + e.getValue() + "'")
                .collect(Collectors.joining("\n", "", "\n"));
    }

    private static String var(String hostName) {
        return hostName.replace('-', '_');
    }

    /** The client's address: the highest host address of the network that nobody in the description uses. */
    static Ipv4 clientAddress(ClusterSpec spec) {
        Set<Ipv4> used = new HashSet<>();
        used.add(spec.vip());
        spec.allHosts().forEach(h -> used.add(h.address()));
        if (spec.lvs() != null && spec.lvs().sorryServer() != null) {
            used.add(spec.lvs().sorryServer());
        }
        Ipv4 candidate = spec.network().network().plus((1 << (32 - spec.network().prefix())) - 2);
        while (used.contains(candidate)) {
            candidate = candidate.plus(-1);
        }
        return candidate;
    }

    static Layout layout(Path run, String host) {
        return new Layout(run.resolve("h").resolve(host).toString());
    }

    private static void write(Path p, String content) throws IOException {
        Files.createDirectories(p.getParent());
        Files.writeString(p, content);
    }
}
