/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.model;

import java.util.ArrayList;
import java.util.List;

/**
 * The VRRP pair that holds the VIP: a preferred MASTER and an optional BACKUP on one interface and router id. Both
 * start as BACKUP; preemptDelaySeconds 0 means nopreempt (a recovered MASTER does not take the VIP back, so one
 * failure costs one failover, not two), otherwise the MASTER takes it back that many seconds after it returns.
 */
public record Vrrp(String iface, int routerId, Host master, Host backup, int advertSeconds, int preemptDelaySeconds) {

    public List<Host> hosts() {
        List<Host> hosts = new ArrayList<>();
        hosts.add(master);
        if (backup != null) {
            hosts.add(backup);
        }
        return hosts;
    }

    public boolean isMaster(Host host) {
        return master.name().equals(host.name());
    }

    /** The other member of the pair, or null for a lone master. */
    public Host peerOf(Host host) {
        if (backup == null) {
            return null;
        }
        return isMaster(host) ? backup : master;
    }

    public int priorityOf(Host host) {
        return isMaster(host) ? 150 : 100;
    }
}
