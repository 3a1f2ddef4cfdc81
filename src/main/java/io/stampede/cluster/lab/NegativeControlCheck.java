/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.lab;

import io.stampede.cluster.model.Realserver;
import java.util.List;

/**
 * Check 4, the negative control: take the VIP off one realserver's lo (with the unit's own ExecStop command) and
 * its share of the requests must fail while the others keep answering; the unit's ExecStart restores it.
 */
final class NegativeControlCheck {

    static final String TITLE = "a realserver without the VIP on lo loses its share (negative control)";
    static final int REQUESTS = 24;

    CheckResult run(LabCluster lab) throws LabException {
        Realserver victim = lab.spec().realservers().stream().filter(r -> r.weight() > 0).findFirst().orElseThrow();
        Deployer d = lab.hosts().get(victim.name());
        String unit = io.stampede.cluster.render.RealserverUnitRenderer.UNIT;
        List<String> del = find(d.unitCommands(unit, "ExecStop"), "del");
        List<String> add = find(d.unitCommands(unit, "ExecStart"), "replace");
        d.run(del);
        Client.Tally broken = lab.client().requests(lab.url(), REQUESTS, 0.5);
        for (int round = 1; round < 3 && broken.failed() == 0; round++) {
            broken = broken.plus(lab.client().requests(lab.url(), REQUESTS, 0.5));
        }
        Client.Tally duringOutage = broken;
        d.run(add);
        Client.Tally restored = lab.client().requests(lab.url(), 12, 1.0);
        long others = lab.spec().realservers().stream().filter(r -> r != victim && r.weight() > 0)
                .filter(r -> duringOutage.answered(r.name()) > 0).count();
        long expectedOthers = lab.spec().realservers().stream().filter(r -> r != victim && r.weight() > 0).count();
        boolean pass = broken.answered(victim.name()) == 0 && broken.failed() > 0 && others == expectedOthers
                && restored.failed() == 0;
        return CheckResult.of(4, TITLE, pass, "ran '" + String.join(" ", del) + "' on " + victim.name() + ": "
                + broken + "\nran '" + String.join(" ", add) + "' again: " + restored);
    }

    private static List<String> find(List<List<String>> commands, String word) throws LabException {
        return commands.stream().filter(c -> c.contains(word)).findFirst()
                .orElseThrow(() -> new LabException("the realserver unit has no 'ip addr " + word + "' command"));
    }
}
