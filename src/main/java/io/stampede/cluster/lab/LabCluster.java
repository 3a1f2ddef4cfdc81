/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.lab;

import io.stampede.cluster.model.ClusterSpec;
import io.stampede.cluster.model.Haproxy;
import io.stampede.cluster.model.Host;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/** A running lab cluster, as the checks see it: description, namespaces, client and the daemons started. */
record LabCluster(ClusterSpec spec, Topology topology, Client client, Map<String, Deployer> hosts,
        Map<String, Process> nginx, Map<String, Process> keepalived, Map<String, Process> haproxy) {

    String vip() {
        return spec.vip().toString();
    }

    String url() {
        return "http://" + spec.vip() + ":" + spec.port() + "/";
    }

    String macOf(Host h) {
        return topology.mac(Topology.ns(h.name()));
    }

    /**
     * HAProxy's stats page of a node as CSV, read where it listens: on loopback from inside the node's namespace,
     * with the generated stats auth when there is one; "" when it does not answer.
     */
    String haproxyStatsCsv(Host node) {
        StatsQuery q = StatsQuery.of(spec.haproxy(), node);
        return Namespaces.in(Topology.ns(node.name()), Duration.ofSeconds(5), q.command(), q.config()).stdout();
    }

    /**
     * curl's command line for the stats page and the config it reads from stdin (-K -). The password goes in the
     * config: a command line is world-readable in /proc/PID/cmdline while curl runs.
     */
    record StatsQuery(List<String> command, String config) {

        static StatsQuery of(Haproxy ha, Host node) {
            List<String> cmd = new ArrayList<>(List.of("curl", "-s", "--connect-timeout", "1", "-m", "3", "-K", "-",
                    "http://" + ha.statsAddress(node) + ":" + ha.statsPort() + "/stats;csv"));
            // stats_auth holds no '"' or '\' (the reader refuses them), so it needs no escaping inside the quotes
            return new StatsQuery(cmd, ha.statsAuth() == null ? "" : "user = \"" + ha.statsAuth() + "\"\n");
        }
    }

    /** Whether the host's NIC holds the VIP now. */
    boolean holdsVip(Host h) {
        return Namespaces.in(Topology.ns(h.name()), "ip", "-br", "addr", "show", "dev", topology.iface())
                .stdout().contains(" " + spec.vip() + "/");
    }

    /** Polls until the condition holds or the time is up; every wait of the lab is bounded this way. */
    static boolean await(Duration limit, BooleanSupplier condition) {
        long end = System.nanoTime() + limit.toNanos();
        while (true) {
            if (condition.getAsBoolean()) {
                return true;
            }
            if (System.nanoTime() > end) {
                return false;
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
    }
}
