/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.lab;

import io.stampede.cluster.model.Realserver;
import io.stampede.cluster.render.NginxRenderer;
import io.stampede.cluster.sys.ExecResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Check 7: through HAProxy every realserver's blocking-time log gets the X-Request-Start stamp and yields a
 * blocking time (nginx receive minus stamp) near zero on one machine; with `tc qdisc ... netem delay 5ms` on the
 * switch port towards one realserver, that realserver, and only that one, shows about +5 ms. A kernel without
 * sch_netem leaves the second half to the VM lab (`cluster lab --vm`), which runs both halves on Debian's kernel.
 */
final class BlockingTimeCheck {

    static final String TITLE = BlockingTimeShift.TITLE;

    CheckResult run(LabCluster lab) {
        List<Realserver> servers = lab.spec().realservers().stream().filter(r -> r.weight() > 0).toList();
        StringBuilder detail = new StringBuilder();
        Map<String, Double> before = measure(lab, servers, detail, "without delay");
        if (before == null) {
            return CheckResult.of(7, TITLE, false, detail.toString());
        }
        boolean measured = BlockingTimeShift.nearZero(before);
        Realserver slow = servers.get(servers.size() - 1);
        String port = lab.topology().switchPort(Topology.ns(slow.name()));
        ExecResult add = Namespaces.in(Topology.SWITCH, "tc", "qdisc", "add", "dev", port, "root", "netem", "delay",
                "5ms");
        if (add.exitCode() != 0) {
            detail.append("netem delay on ").append(slow.name()).append("'s link NOT checked here: tc says ")
                    .append(add.stderr().strip()).append(" (this kernel lacks sch_netem, CONFIG_NET_SCH_NETEM;")
                    .append(" `cluster lab --vm` runs this check on Debian's kernel)");
            return CheckResult.of(7, TITLE, measured, detail.toString());
        }
        try {
            Map<String, Double> after = measure(lab, servers, detail, "with netem delay 5ms towards " + slow.name());
            if (after == null) {
                return CheckResult.of(7, TITLE, false, detail.toString());
            }
            boolean onlyThere = BlockingTimeShift.onlyThereShifted(before, after, slow.name(), detail);
            return CheckResult.of(7, TITLE, measured && onlyThere, detail.toString().strip());
        } finally {
            Namespaces.in(Topology.SWITCH, "tc", "qdisc", "del", "dev", port, "root");
        }
    }

    /** p50 blocking time per realserver over the lines REQUESTS new requests add to their logs; null on failure. */
    private Map<String, Double> measure(LabCluster lab, List<Realserver> servers, StringBuilder detail, String what) {
        Map<String, Long> offsets = new LinkedHashMap<>();
        for (Realserver r : servers) {
            offsets.put(r.name(), size(log(lab, r)));
        }
        Client.Tally t = lab.client().requests(lab.url(), BlockingTimeShift.REQUESTS, 1.0);
        // nginx writes its buffered log lines at most 1 s later (flush=1s): wait for the logs to grow, then for
        // one more flush, so that no request's line is still in the buffer
        LabCluster.await(java.time.Duration.ofSeconds(4), () -> servers.stream().allMatch(r ->
                size(log(lab, r)) > offsets.get(r.name())));
        long settle = System.nanoTime() + 1_500_000_000L;
        LabCluster.await(java.time.Duration.ofSeconds(2), () -> System.nanoTime() > settle);
        Map<String, List<String>> lines = new LinkedHashMap<>();
        for (Realserver r : servers) {
            lines.put(r.name(), newLines(log(lab, r), offsets.get(r.name())));
        }
        return BlockingTimeShift.p50s(lines, what, t.toString(), detail);
    }

    private static List<String> newLines(Path log, long from) {
        try {
            byte[] all = Files.readAllBytes(log);
            int start = (int) Math.min(all.length, from);
            return new String(Arrays.copyOfRange(all, start, all.length), StandardCharsets.UTF_8).lines().toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    private static Path log(LabCluster lab, Realserver r) {
        return lab.hosts().get(r.name()).path(NginxRenderer.BLOCKING_LOG);
    }

    private static long size(Path p) {
        try {
            return Files.exists(p) ? Files.size(p) : 0;
        } catch (IOException e) {
            return 0;
        }
    }
}
