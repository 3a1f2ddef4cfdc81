/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.model;

/**
 * The LVS-DR director layer: its VRRP pair, the IPVS scheduler, persistence and connection-table size. sorryServer (may be null) answers when every realserver is down; it is set up like a
 * realserver (VIP on lo, ARP kept quiet). syncDaemon: the directors copy their connection table to each other
 * (keepalived's lvs_sync_daemon), so that established connections survive a failover.
 */
public record Lvs(Vrrp vrrp, String scheduler, int persistenceSeconds, int connTabBits, Ipv4 sorryServer,
        boolean syncDaemon) {

    public Lvs(Vrrp vrrp, String scheduler, int persistenceSeconds, int connTabBits) {
        this(vrrp, scheduler, persistenceSeconds, connTabBits, null, false);
    }

    public Lvs withSyncDaemon(boolean on) {
        return new Lvs(vrrp, scheduler, persistenceSeconds, connTabBits, sorryServer, on);
    }
}
