/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.lab;

import io.stampede.cluster.model.Host;
import io.stampede.cluster.model.Realserver;
import java.time.Duration;

/**
 * Check 5: through HAProxy the requests spread over every nginx; a stopped nginx is marked DOWN by the health
 * check (seen on the stats page) while the traffic continues on the others.
 */
final class HaproxyCheck {

    static final String TITLE = "through HAProxy requests spread over all nginx; a stopped nginx is marked DOWN,"
            + " traffic continues";

    CheckResult run(LabCluster lab) {
        Client.Tally before = lab.client().requests(lab.url(), 12, 1.0);
        Realserver victim = lab.spec().realservers().get(0);
        LabProcesses.stop(lab.nginx().get(victim.name()));
        Host node = lab.spec().vrrp().master();
        long start = System.nanoTime();
        boolean down = LabCluster.await(Duration.ofSeconds(20), () -> lab.haproxyStatsCsv(node).lines()
                .anyMatch(l -> l.startsWith("be_nginx," + victim.name() + ",") && l.contains(",DOWN")));
        double seconds = (System.nanoTime() - start) / 1e9;
        Client.Tally after = lab.client().requests(lab.url(), 12, 1.0);
        boolean spread = lab.spec().realservers().stream().filter(r -> r.weight() > 0)
                .allMatch(r -> before.answered(r.name()) > 0) && before.failed() == 0;
        boolean continues = after.failed() == 0 && after.answered(victim.name()) == 0;
        return CheckResult.of(5, TITLE, spread && down && continues, "12 requests: " + before + "\nstopped nginx on "
                + victim.name() + ": " + (down ? "stats page shows it DOWN after " + String.format(java.util.Locale.ROOT,
                        "%.1f", seconds) + " s" : "not marked DOWN within 20 s") + "\n12 requests after: " + after);
    }
}
