/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.model;

/**
 * The LVS-DR director layer: its VRRP pair, the IPVS scheduler, the default persistence (timeout and client
 * netmask, null when unset) of the virtual services, connection-table size, IPVS timeouts,
 * and whether a failed realserver is kept with weight 0 (inhibit_on_failure) instead of being removed.
 * sorryServer (may be null) answers when every realserver is down; it is set up like a realserver (VIP on lo, ARP
 * kept quiet). syncDaemon: the directors copy their connection table to each other (keepalived's lvs_sync_daemon),
 * so that established connections survive a failover.
 */
public record Lvs(Vrrp vrrp, String scheduler, int persistenceSeconds, Ipv4 persistenceNetmask, int connTabBits,
        IpvsTimeouts timeouts, boolean inhibitOnFailure, Ipv4 sorryServer, boolean syncDaemon) {

    public Lvs(Vrrp vrrp, String scheduler, int persistenceSeconds, Ipv4 persistenceNetmask, int connTabBits,
            IpvsTimeouts timeouts, boolean inhibitOnFailure) {
        this(vrrp, scheduler, persistenceSeconds, persistenceNetmask, connTabBits, timeouts, inhibitOnFailure, null,
                false);
    }

    public Lvs withSyncDaemon(boolean on) {
        return new Lvs(vrrp, scheduler, persistenceSeconds, persistenceNetmask, connTabBits, timeouts,
                inhibitOnFailure, sorryServer, on);
    }
}
