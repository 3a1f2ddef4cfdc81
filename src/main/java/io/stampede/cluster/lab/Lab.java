/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.lab;

import io.stampede.cli.ExitCodes;
import io.stampede.cluster.model.ArpMethod;
import io.stampede.cluster.model.ClusterSpec;
import io.stampede.cluster.model.Host;
import io.stampede.cluster.model.Realserver;
import io.stampede.cluster.render.ClusterRenderer;
import io.stampede.cluster.render.Layout;
import io.stampede.cluster.render.NginxRenderer;
import io.stampede.cluster.render.OutputWriter;
import io.stampede.cluster.render.RealserverUnitRenderer;
import io.stampede.cluster.render.RenderedFile;
import io.stampede.cluster.sys.Exec;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Builds a described cluster from network namespaces on this machine, runs it from the generated files, checks it,
 * and removes everything it made whatever happens (normal end, failure, Ctrl-C).
 */
public final class Lab {

    private final PrintWriter out;
    private final LabProcesses processes = new LabProcesses();
    private final AtomicBoolean cleaned = new AtomicBoolean();
    private Path labDir;

    public Lab(PrintWriter out) {
        this.out = out;
    }

    /** Runs the lab; returns the exit code ({@link ExitCodes}). */
    public int run(ClusterSpec spec) {
        List<String> missing = missingTools(spec);
        if (!"root".equals(System.getProperty("user.name"))) {
            out.println("lab: needs root (network namespaces, nft, keepalived)");
            return ExitCodes.CANNOT_RUN;
        }
        if (!missing.isEmpty()) {
            out.println("lab: missing programs: " + String.join(", ", missing));
            return ExitCodes.CANNOT_RUN;
        }
        LabLock lock;
        try {
            lock = LabLock.take(LabLock.DEFAULT);
        } catch (LabException e) {
            out.println("lab: " + e.getMessage());
            return ExitCodes.CANNOT_RUN;
        }
        try (lock) {
            return runLocked(spec);
        }
    }

    /** With the lock held, stl-* namespaces that exist are an interrupted run's leftovers, never a live lab's. */
    private int runLocked(ClusterSpec spec) {
        List<String> leftovers = Namespaces.existing();
        if (!leftovers.isEmpty()) {
            out.println("lab: removing leftovers of an earlier run: " + leftovers);
            Namespaces.removeAll();
        }
        Thread hook = new Thread(this::cleanup, "stampede-lab-cleanup");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            labDir = LabFolder.create();
            List<CheckResult> results = runChecks(start(spec));
            long failed = results.stream().filter(r -> r.status() == CheckResult.Status.FAIL).count();
            long passed = results.stream().filter(r -> r.status() == CheckResult.Status.PASS).count();
            out.println("lab: " + passed + " passed, " + failed + " failed, " + (results.size() - passed - failed)
                    + " not applicable");
            return failed == 0 ? ExitCodes.OK : ExitCodes.CHECK_FAILED;
        } catch (LabException | IOException e) {
            out.println(cleaned.get() ? "lab: interrupted; every namespace and process it made was removed"
                    : "lab: cannot build the cluster: " + e.getMessage());
            return ExitCodes.CANNOT_RUN;
        } finally {
            cleanup();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running or has run: nothing left to do
            }
        }
    }

    private static List<String> missingTools(ClusterSpec spec) {
        List<String> tools = new ArrayList<>(List.of("ip", "nft", "nginx", "keepalived", "curl", "arping", "sysctl",
                "prlimit"));
        if (spec.haproxy() != null) {
            tools.add("haproxy");
        }
        if (spec.realservers().stream().anyMatch(r -> r.arpMethod().toString().equals("arptables"))) {
            tools.add("arptables");
            tools.add("arptables-save");
        }
        return tools.stream().filter(t -> !Exec.available(t)).toList();
    }

    private LabCluster start(ClusterSpec spec) throws LabException {
        String mode = spec.isDirectRouting() ? "LVS-DR" : "HAProxy";
        out.println("lab: cluster " + spec.name() + " (" + mode + "), VIP " + spec.vip() + ", "
                + spec.vrrp().hosts().size() + " VIP holder(s), " + spec.realservers().size() + " realservers");
        Topology topology = Topology.build(spec);
        out.println("lab: namespaces up, client " + topology.clientAddress() + ", files under " + labDir);
        List<RenderedFile> files;
        try {
            files = new ClusterRenderer().render(spec, name -> layout(name));
        } catch (IllegalArgumentException outside) {
            throw new LabException(outside.getMessage()); // a path leading out of the lab folder: nothing written
        }
        Map<String, Deployer> hosts = new LinkedHashMap<>();
        Map<String, Process> nginx = new LinkedHashMap<>();
        Map<String, Process> keepalived = new LinkedHashMap<>();
        Map<String, Process> haproxy = new LinkedHashMap<>();
        Client client = new Client(topology.iface());
        for (Realserver rs : spec.realservers()) {
            Deployer d = new Deployer(rs.name(), layout(rs.name()), files, processes);
            hosts.put(rs.name(), d);
            d.install();
            d.installTlsStandIn(spec.tls());
            d.writeIndex(NginxRenderer.DOCROOT);
            d.applySysctl("90-stampede-realserver.conf");
            if (spec.isDirectRouting()) {
                d.runUnit(RealserverUnitRenderer.UNIT, "ExecStart");
                // as nftables.service's reload propagates: the rules are applied a second time, never doubled
                d.runUnit(RealserverUnitRenderer.UNIT, "ExecReload");
                requireSingleArptablesRules(spec, rs, d);
            }
            nginx.put(rs.name(), d.startNginx());
            String url = "http://" + rs.address() + ":" + rs.port() + "/";
            if (!LabCluster.await(Duration.ofSeconds(10), () -> client.get(url).equals(rs.name()))) {
                throw new LabException(rs.name() + ": nginx does not answer on " + url + "; see " + d.log("nginx"));
            }
        }
        for (Host h : spec.vrrp().hosts()) {
            Deployer d = new Deployer(h.name(), layout(h.name()), files, processes);
            hosts.put(h.name(), d);
            d.install();
            d.installTlsStandIn(spec.tls());
            if (spec.isDirectRouting()) {
                d.applySysctl("90-stampede-director.conf");
                // the generated notrack table (its ipvsadm --set needs IPVS, which the emulated lab does without)
                Namespaces.loadNft(d.ns(), d.file("lvs-director.nft").content());
                Namespaces.loadNft(d.ns(), DrEmulation.script(spec, topology, h));
            } else {
                d.applySysctl("90-stampede-haproxy.conf");
                haproxy.put(h.name(), d.startHaproxy());
            }
        }
        LabCluster lab = new LabCluster(spec, topology, client, hosts, nginx, keepalived, haproxy);
        // nopreempt: the first node to become MASTER keeps the VIP. Started together, the preferred node can lose
        // that race when its first track-script run comes late (seen under qemu), so it starts alone, as an
        // operator brings a pair up, and the others join once it holds the VIP.
        Host master = spec.vrrp().master();
        keepalived.put(master.name(), hosts.get(master.name()).startKeepalived());
        if (!LabCluster.await(Duration.ofSeconds(15), () -> lab.holdsVip(master))) {
            throw new LabException("keepalived did not put the VIP on " + master.name() + " within 15 s; see "
                    + hosts.get(master.name()).log("keepalived"));
        }
        for (Host h : spec.vrrp().hosts()) {
            if (!h.name().equals(master.name())) {
                Deployer d = hosts.get(h.name());
                keepalived.put(h.name(), d.startKeepalived());
                Path log = d.log("keepalived");
                if (!LabCluster.await(Duration.ofSeconds(15), () -> mentions(log, "Entering BACKUP STATE"))) {
                    throw new LabException(h.name() + ": keepalived did not enter BACKUP state within 15 s; see "
                            + log + ": " + tail(log));
                }
            }
        }
        if (!spec.isDirectRouting() && !LabCluster.await(Duration.ofSeconds(10),
                () -> !client.get(lab.url()).isEmpty())) {
            throw new LabException("HAProxy does not answer on " + lab.url() + "; see "
                    + hosts.get(master.name()).log("haproxy") + ": " + tail(hosts.get(master.name()).log("haproxy")));
        }
        out.println("lab: VRRP MASTER " + master.name() + " holds " + spec.vip() + "; nginx answers on every realserver");
        return lab;
    }

    /** The arptables start and reload lines ran twice by now: each rule must still be there exactly once. */
    private static void requireSingleArptablesRules(ClusterSpec spec, Realserver rs, Deployer d) throws LabException {
        if (rs.arpMethod() != ArpMethod.ARPTABLES) {
            return;
        }
        String saved = Namespaces.mustIn(d.ns(), "arptables-save");
        long rules = saved.lines().filter(l -> l.startsWith("-A ")
                && List.of(l.split("\\s+")).contains(spec.vip().toString())).count();
        if (rules != 2) {
            throw new LabException(rs.name() + ": after the unit's start and reload lines arptables holds " + rules
                    + " rules for the VIP instead of 2:\n" + saved);
        }
    }

    private List<CheckResult> runChecks(LabCluster lab) throws LabException {
        ClusterSpec spec = lab.spec();
        List<CheckResult> results = new ArrayList<>();
        record(results, new ArpCheck().run(lab));
        if (spec.isDirectRouting()) {
            record(results, new AnnounceCheck().run(lab));
            record(results, new DirectReturnCheck().run(lab));
            record(results, new NegativeControlCheck().run(lab));
            record(results, CheckResult.skip(5, HaproxyCheck.TITLE, "no HAProxy layer in this description"));
            record(results, CheckResult.skip(7, BlockingTimeCheck.TITLE, "no HAProxy layer to stamp the requests"));
        } else {
            String why = "behind HAProxy the realservers do not hold the VIP (no LVS-DR)";
            record(results, CheckResult.skip(2, AnnounceCheck.TITLE, why));
            record(results, CheckResult.skip(3, DirectReturnCheck.TITLE, why));
            record(results, CheckResult.skip(4, NegativeControlCheck.TITLE, why));
            // before check 5, which stops one nginx
            record(results, new BlockingTimeCheck().run(lab));
            record(results, new HaproxyCheck().run(lab));
        }
        if (spec.vrrp().backup() != null) {
            record(results, new FailoverCheck().run(lab));
        } else {
            record(results, CheckResult.skip(6, FailoverCheck.TITLE, "only one VIP holder is described"));
        }
        return results;
    }

    private void record(List<CheckResult> results, CheckResult r) throws LabException {
        if (cleaned.get()) {
            // the shutdown hook (Ctrl-C, SIGTERM) already tore the cluster down: later verdicts would be noise
            throw new LabException("interrupted; everything was removed");
        }
        results.add(r);
        out.println(r);
        out.flush();
    }

    private static boolean mentions(Path log, String text) {
        try {
            return Files.readString(log).contains(text);
        } catch (IOException e) {
            return false;
        }
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 5), lines.size()));
        } catch (IOException e) {
            return "(no log)";
        }
    }

    private Layout layout(String host) {
        return new Layout(labDir.resolve(host).toString());
    }

    /**
     * Stops every daemon, removes every stl namespace and the lab directory; runs once. Synchronized: the JVM
     * halts as soon as the Ctrl-C hook returns, so a hook that comes while the run's own clean-up is at work
     * waits for it instead of returning at once.
     */
    private synchronized void cleanup() {
        if (!cleaned.compareAndSet(false, true)) {
            return;
        }
        processes.stopAll();
        Namespaces.removeAll();
        try {
            if (labDir != null) {
                OutputWriter.deleteTree(labDir);
            }
        } catch (IOException e) {
            out.println("lab: could not remove " + labDir + ": " + e.getMessage());
        }
        List<String> left = Namespaces.existing();
        out.println(left.isEmpty() ? "lab: cleaned up (no stl namespace, no lab process left)"
                : "lab: WARNING namespaces left: " + left);
        out.flush();
    }
}
