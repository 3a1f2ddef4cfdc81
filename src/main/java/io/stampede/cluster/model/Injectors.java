/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.model;

import java.util.List;

/**
 * The load injectors, the ephemeral-port range they should use, and the ports kept out of it because a JMeter
 * engine listens on them (RMI registry and object ports).
 */
public record Injectors(List<Host> hosts, int portLow, int portHigh, List<Integer> rmiPorts) {

    public Injectors {
        hosts = List.copyOf(hosts);
        rmiPorts = List.copyOf(rmiPorts);
    }
}
