/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.lab;

import io.stampede.cluster.model.Host;

/** Turns a MAC address seen on the wire back into the lab host that owns it. */
final class Names {

    private Names() {
    }

    static String of(LabCluster lab, String mac) {
        for (Host h : lab.spec().allHosts()) {
            if (mac.equals(lab.topology().mac(Topology.ns(h.name())))) {
                return h.name();
            }
        }
        return "unknown host";
    }
}
