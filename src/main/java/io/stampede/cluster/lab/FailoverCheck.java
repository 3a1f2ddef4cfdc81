/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.lab;

import io.stampede.cluster.model.Host;
import java.time.Duration;
import java.util.Locale;

/**
 * Check 6: a failed MASTER moves the VIP to the BACKUP, and the client's neighbour entry for the VIP follows
 * (gratuitous ARP) without the client doing anything; requests then go through the backup. On directors the
 * failure is keepalived stopping; on an HAProxy pair it is HAProxy stopping while keepalived keeps running, so
 * the VIP can only move because the generated track_script saw HAProxy die.
 */
final class FailoverCheck {

    static final String TITLE = "keepalived VRRP: a failed MASTER (keepalived stopped; on an HAProxy pair HAProxy"
            + " stopped) moves the VIP to the BACKUP, the client follows";

    CheckResult run(LabCluster lab) {
        Host master = lab.spec().vrrp().master();
        Host backup = lab.spec().vrrp().backup();
        lab.client().requests(lab.url(), 2, 1.0);
        String before = lab.client().neighbour(lab.vip());
        long start = System.nanoTime();
        boolean haproxyPair = !lab.spec().isDirectRouting();
        LabProcesses.stop((haproxyPair ? lab.haproxy() : lab.keepalived()).get(master.name()));
        boolean moved = LabCluster.await(Duration.ofSeconds(15), () -> lab.holdsVip(backup) && !lab.holdsVip(master));
        double movedAfter = (System.nanoTime() - start) / 1e9;
        String backupMac = lab.macOf(backup);
        boolean followed = LabCluster.await(Duration.ofSeconds(10),
                () -> backupMac.equals(lab.client().neighbour(lab.vip())));
        double followedAfter = (System.nanoTime() - start) / 1e9;
        Client.Tally after = lab.client().requests(lab.url(), 6, 1.0);
        boolean pass = before.equals(lab.macOf(master)) && moved && followed && after.failed() == 0;
        return CheckResult.of(6, TITLE, pass, String.format(Locale.ROOT,
                "client's entry for %s before: %s (%s); stopped %s on %s%n"
                        + "VIP on %s: %s after %.1f s; client's entry: %s (%s) after %.1f s%n6 requests after: %s",
                lab.vip(), before, Names.of(lab, before), haproxyPair ? "HAProxy" : "keepalived", master.name(), backup.name(), moved ? "yes" : "NO",
                movedAfter, lab.client().neighbour(lab.vip()), Names.of(lab, lab.client().neighbour(lab.vip())),
                followedAfter, after));
    }
}
