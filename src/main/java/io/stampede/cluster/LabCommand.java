/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster;

import io.stampede.cli.ExitCodes;
import io.stampede.cluster.lab.Lab;
import io.stampede.cluster.model.ClusterSpec;
import io.stampede.cluster.vm.VmLabOptions;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine;
import io.stampede.cluster.vm.VmLab;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** stampede cluster lab FILE. */
@Command(name = "lab", mixinStandardHelpOptions = true,
        description = {"Prove a cluster description on this machine (root, Linux): build it from network",
            "namespaces named stl-*, apply the generated realserver unit commands, sysctl.d and nginx files,",
            "start nginx, keepalived (VRRP) and HAProxy from the generated files, emulate the LVS-DR director",
            "with an nft netdev rule, and run six checks: 1 arping VIP gets one MAC; 2 realservers announce",
            "with their own address; 3 requests reach every realserver, replies come straight back from",
            "them; 4 a realserver without the VIP loses its share; 5 HAProxy health checks; 6 VRRP failover.",
            "Every namespace and process it created is removed at the end, on failure and on Ctrl-C.",
            "Exit 0 when every applicable check passes (the codes are listed below).",
            "",
            "--vm: the same cluster on a real IPVS kernel instead: Debian's kernel under qemu (software",
            "emulation), a debootstrap guest built once and cached (--vm-cache), namespaces inside the guest,",
            "keepalived (without -P) programming the real IPVS table from the generated keepalived.conf, and",
            "the real ipvsadm loading the generated ipvsadm.rules. Checks a-f: a keepalived's table equals",
            "ipvsadm.rules; b ipvsadm -R and ipvsadm-restore load it, twice the same; c shares follow the",
            "weights (within 10 points); d a realserver whose nginx stops leaves within fall x interval and",
            "comes back; e a keep-alive connection survives director failover with sync_daemon, is reset",
            "without; f the sorry server answers when every realserver is down."})
final class LabCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "FILE", description = "the cluster description (YAML)")
    Path file;

    @Mixin
    VmLabOptions vm;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        ClusterSpec cluster = SpecFiles.load(file, spec.commandLine().getErr());
        if (cluster == null) {
            return ExitCodes.BAD_INPUT;
        }
        if (vm.enabled()) {
            return new VmLab(spec.commandLine().getOut()).run(cluster, vm.cache());
        }
        return new Lab(spec.commandLine().getOut()).run(cluster);
    }
}
