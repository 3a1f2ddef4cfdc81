/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.model;

import java.util.List;

/**
 * One virtual service: a VIP and its TCP ports. With a firewall mark (LVS-DR only) the ports form one IPVS
 * service, so a persistent client sticks to the same realserver on all of them (80 and 443 together);
 * without one, every port is its own IPVS service. persistenceNetmask groups clients of one network into one
 * persistence entry (ipvsadm -M, keepalived persistence_granularity); null when not set.
 */
public record VirtualService(Ipv4 vip, List<Integer> ports, int fwmark, int persistenceSeconds,
        Ipv4 persistenceNetmask) {

    public VirtualService {
        ports = List.copyOf(ports);
    }

    public boolean hasFwmark() {
        return fwmark > 0;
    }
}
