/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.lab;

import io.stampede.cluster.model.Host;
import java.util.Set;

/** Check 1: arping VIP from the client gets exactly one MAC, that of the VIP holder (director or HAProxy node). */
final class ArpCheck {

    static final String TITLE = "arping VIP from the client gets exactly one MAC, the VIP holder's";

    CheckResult run(LabCluster lab) {
        Host holder = lab.spec().vrrp().master();
        Set<String> macs = lab.client().arping(lab.vip());
        String expected = lab.macOf(holder);
        StringBuilder who = new StringBuilder();
        for (String mac : macs) {
            who.append(who.length() == 0 ? "" : ", ").append(mac).append(" = ").append(Names.of(lab, mac));
        }
        return CheckResult.of(1, TITLE, macs.equals(Set.of(expected)), "arping " + lab.vip() + ": "
                + macs.size() + " distinct MAC(s) answered: " + (macs.isEmpty() ? "none" : who)
                + "; expected only " + expected + " (" + holder.name() + ")");
    }
}
