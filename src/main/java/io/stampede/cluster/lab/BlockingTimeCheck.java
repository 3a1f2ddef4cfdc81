/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.lab;

import io.stampede.blocking.AccessLogException;
import io.stampede.blocking.BlockingTimes;
import io.stampede.cluster.model.Realserver;
import io.stampede.cluster.render.NginxRenderer;
import io.stampede.cluster.sys.ExecResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Check 7: through HAProxy every realserver's blocking-time log gets the X-Request-Start stamp and yields a
 * blocking time (nginx receive minus stamp) near zero on one machine; with `tc qdisc ... netem delay 5ms` on the
 * switch port towards one realserver, that realserver, and only that one, shows about +5 ms.
 */
final class BlockingTimeCheck {

    static final String TITLE = "through HAProxy the blocking time is measured on every realserver; netem delay "
            + "5ms towards one shows +5 ms there only";
    private static final int REQUESTS = 30;

    CheckResult run(LabCluster lab) {
        List<Realserver> servers = lab.spec().realservers().stream().filter(r -> r.weight() > 0).toList();
        StringBuilder detail = new StringBuilder();
        Map<String, Double> before = measure(lab, servers, detail, "without delay");
        if (before == null) {
            return CheckResult.of(7, TITLE, false, detail.toString());
        }
        // one host: HAProxy's connect to nginx and nginx's millisecond rounding, nothing more
        boolean measured = before.values().stream().allMatch(p50 -> p50 <= 5.0);
        Realserver slow = servers.get(servers.size() - 1);
        String port = lab.topology().switchPort(Topology.ns(slow.name()));
        ExecResult add = Namespaces.in(Topology.SWITCH, "tc", "qdisc", "add", "dev", port, "root", "netem", "delay",
                "5ms");
        if (add.exitCode() != 0) {
            detail.append("netem delay on ").append(slow.name()).append("'s link NOT checked: tc says ")
                    .append(add.stderr().strip()).append(" (this kernel lacks sch_netem, CONFIG_NET_SCH_NETEM)");
            return CheckResult.of(7, TITLE, measured, detail.toString());
        }
        try {
            Map<String, Double> after = measure(lab, servers, detail, "with netem delay 5ms towards " + slow.name());
            if (after == null) {
                return CheckResult.of(7, TITLE, false, detail.toString());
            }
            boolean onlyThere = true;
            for (Realserver r : servers) {
                double change = after.get(r.name()) - before.get(r.name());
                boolean ok = r == slow ? change >= 4 && change <= 7 : Math.abs(change) <= 1;
                onlyThere &= ok;
                detail.append(String.format(Locale.ROOT, "%s: %+.1f ms%s%n", r.name(), change, ok ? "" : "  <- wrong"));
            }
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
        Client.Tally t = lab.client().requests(lab.url(), REQUESTS, 1.0);
        // nginx writes its buffered log lines at most 1 s later (flush=1s): wait for the logs to grow, then for
        // one more flush, so that no request's line is still in the buffer
        LabCluster.await(java.time.Duration.ofSeconds(4), () -> servers.stream().allMatch(r ->
                size(log(lab, r)) > offsets.get(r.name())));
        long settle = System.nanoTime() + 1_500_000_000L;
        LabCluster.await(java.time.Duration.ofSeconds(2), () -> System.nanoTime() > settle);
        Map<String, Double> p50 = new LinkedHashMap<>();
        detail.append(what).append(": ").append(t).append('\n');
        for (Realserver r : servers) {
            try {
                Path tail = Files.createTempFile("stampede-blocking-", ".log");
                try {
                    byte[] all = Files.readAllBytes(log(lab, r));
                    int from = (int) Math.min(all.length, offsets.get(r.name()));
                    Files.write(tail, java.util.Arrays.copyOfRange(all, from, all.length));
                    BlockingTimes b = BlockingTimes.read(List.of(tail));
                    BlockingTimes.Server s = b.servers().values().iterator().next();
                    double v = s.histogram().getValueAtPercentile(50) / 1000.0;
                    p50.put(r.name(), v);
                    detail.append(String.format(Locale.ROOT, "  %s: %d requests, blocking p50 %.1f ms, max %.1f ms%s%n",
                            r.name(), s.histogram().getTotalCount(), v, s.histogram().getMaxValue() / 1000.0,
                            s.negative() > 0 ? ", " + s.negative() + " below -1 ms" : ""));
                } finally {
                    Files.deleteIfExists(tail);
                }
            } catch (IOException | AccessLogException e) {
                detail.append("  ").append(r.name()).append(": ").append(e.getMessage()).append('\n');
                return null;
            }
        }
        return p50;
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
