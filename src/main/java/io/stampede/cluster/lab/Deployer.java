/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.lab;

import io.stampede.cluster.model.Tls;
import io.stampede.cluster.render.Layout;
import io.stampede.cluster.render.RenderedFile;
import io.stampede.cluster.sys.ExecResult;
import io.stampede.cluster.sys.StandInCertificate;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Puts one host's generated files in place under its lab root and runs them: the systemd unit's own ExecStart
 * and ExecStop lines, the sysctl.d file, nginx, keepalived and HAProxy from the generated configuration.
 */
final class Deployer {

    private final String host;
    private final String ns;
    private final Layout layout;
    private final List<RenderedFile> files;
    private final LabProcesses processes;

    Deployer(String host, Layout layout, List<RenderedFile> all, LabProcesses processes) {
        this.host = host;
        this.ns = Topology.ns(host);
        this.layout = layout;
        this.files = all.stream().filter(f -> f.relativePath().split("/")[1].equals(host)).toList();
        this.processes = processes;
    }

    String ns() {
        return ns;
    }

    /** Where an installation path of this host lives in the lab. */
    Path path(String install) {
        return Path.of(layout.path(install));
    }

    /** Writes every file of the host to its installation path under the lab root. */
    void install() throws LabException {
        try {
            for (RenderedFile f : files) {
                Path p = target(f);
                Files.createDirectories(p.getParent());
                // owner only: haproxy.cfg holds the stats password; the daemons read their files as root
                LabFolder.writeSecret(p, f.content());
            }
            for (String dir : List.of("/run/haproxy", "/var/log/nginx")) {
                Files.createDirectories(path(dir));
            }
        } catch (IOException | IllegalArgumentException e) {
            throw new LabException(host + ": cannot install generated files: " + e.getMessage());
        }
    }

    /**
     * The description's TLS material, which lives on the real hosts, is not on this machine: a self-signed stand-in
     * goes to the host's lab path of the certificate (and of the key, when that is a separate file).
     */
    void installTlsStandIn(Tls tls) throws LabException {
        if (tls == null) {
            return;
        }
        try {
            Path certificate = path(tls.certificate());
            StandInCertificate.write(certificate);
            LabFolder.ownerOnly(certificate);
            if (!tls.key().equals(tls.certificate())) {
                Path key = path(tls.key());
                Files.copy(certificate, key, StandardCopyOption.REPLACE_EXISTING);
                LabFolder.ownerOnly(key);
            }
        } catch (IOException | IllegalArgumentException e) {
            throw new LabException(host + ": " + e.getMessage());
        }
    }

    Path target(RenderedFile f) {
        String install = f.installPath();
        // lab renderings already carry the root in their install path
        boolean placed = !layout.root().isEmpty() && install.startsWith(layout.root() + "/");
        return path(placed ? install.substring(layout.root().length()) : install);
    }

    RenderedFile file(String name) throws LabException {
        return files.stream().filter(f -> f.relativePath().endsWith("/" + name)).findFirst()
                .orElseThrow(() -> new LabException(host + ": no generated " + name));
    }

    /** A static page naming the host, so a response tells which realserver served it. */
    void writeIndex(String docroot) throws LabException {
        try {
            Path dir = path(docroot);
            Files.createDirectories(dir);
            Files.writeString(dir.resolve("index.html"), host);
        } catch (IOException e) {
            throw new LabException(host + ": cannot write index.html: " + e.getMessage());
        }
    }

    /**
     * Applies the net.* lines of the generated sysctl.d file inside the namespace. Only net.* keys are
     * per-namespace; anything else (fs.*, vm.*) would change the machine running the lab, so it is left out.
     */
    void applySysctl(String fileName) throws LabException {
        String lines = file(fileName).content().lines()
                .map(String::strip)
                .filter(l -> l.startsWith("net.") || l.startsWith("-net."))
                .map(l -> l.startsWith("-") ? l.substring(1) : l)
                .collect(Collectors.joining("\n"));
        Path subset = path("/etc/sysctl.d/lab-net-subset.conf");
        try {
            Files.createDirectories(subset.getParent());
            Files.writeString(subset, lines + "\n");
        } catch (IOException e) {
            throw new LabException(host + ": " + e.getMessage());
        }
        // -e: keys of modules this kernel lacks (net.ipv4.vs.*) are ignored, as systemd-sysctl does for "-" lines
        Namespaces.mustIn(ns, "sysctl", "-e", "-q", "-p", subset.toString());
    }

    /** The commands of the unit's ExecStart= (or ExecStop=) lines, with systemd's "-" prefix removed. */
    List<List<String>> unitCommands(String unit, String key) throws LabException {
        List<List<String>> out = new ArrayList<>();
        for (String line : file(unit).content().split("\n")) {
            if (line.startsWith(key + "=")) {
                String cmd = line.substring(key.length() + 1);
                out.add(Arrays.asList((cmd.startsWith("-") ? cmd.substring(1) : cmd).split(" ")));
            }
        }
        return out;
    }

    /** Runs the unit's ExecStart= (or ExecReload=, ExecStop=) lines as systemd would: "-" lines may fail. */
    void runUnit(String unit, String key) throws LabException {
        for (String line : file(unit).content().split("\n")) {
            if (line.startsWith(key + "=")) {
                String cmd = line.substring(key.length() + 1);
                boolean mayFail = cmd.startsWith("-");
                List<String> command = Arrays.asList((mayFail ? cmd.substring(1) : cmd).split(" "));
                ExecResult r = Namespaces.in(ns, Namespaces.SHORT, command);
                if (!mayFail) {
                    Namespaces.must(r, host + ": " + String.join(" ", command));
                }
            }
        }
    }

    void run(List<String> command) throws LabException {
        ExecResult r = Namespaces.in(ns, Namespaces.SHORT, command);
        Namespaces.must(r, host + ": " + String.join(" ", command));
    }

    Process startNginx() throws LabException {
        RenderedFile conf = file("nginx.conf");
        return processes.start(ns, log("nginx"), List.of("nginx", "-c", target(conf).toString(), "-g", "daemon off;"));
    }

    Process startKeepalived() throws LabException {
        RenderedFile conf = file("keepalived.conf");
        // -P: VRRP only. The checker needs IPVS in the kernel, which the lab machine may not have.
        return processes.start(ns, log("keepalived"), List.of("keepalived", "-n", "-l", "-D", "-P", "-f",
                target(conf).toString(), "-p", layout.path("/run/keepalived.pid"), "-r",
                layout.path("/run/keepalived-vrrp.pid")));
    }

    /** HAProxy under the LimitNOFILE of the generated drop-in, as systemd would start it (it refuses less). */
    Process startHaproxy() throws LabException {
        RenderedFile conf = file("haproxy.cfg");
        String limit = file("stampede-limits.conf").content().lines().filter(l -> l.startsWith("LimitNOFILE="))
                .map(l -> l.substring("LimitNOFILE=".length())).findFirst()
                .orElseThrow(() -> new LabException(host + ": the drop-in sets no LimitNOFILE"));
        return processes.start(ns, log("haproxy"), List.of("prlimit", "--nofile=" + limit + ":" + limit, "haproxy",
                "-db", "-f", target(conf).toString()));
    }

    Path log(String daemon) {
        return Path.of(layout.root(), daemon + ".log");
    }
}
