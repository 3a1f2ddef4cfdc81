/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.model;

/** How a DR realserver keeps quiet about the VIP it holds on lo. */
public enum ArpMethod {
    /** net.ipv4.conf.all.arp_ignore=1 and arp_announce=2: host-wide, the LVS knowledge-base answer. */
    SYSCTL,
    /** A native nftables arp table: drop requests for the VIP, rewrite VIP-sourced requests to the RIP. */
    NFT,
    /** The same two rules with arptables (chains INPUT/OUTPUT; the old IN/OUT names fail today). */
    ARPTABLES;

    public static ArpMethod parse(String text) {
        for (ArpMethod m : values()) {
            if (m.toString().equals(text)) {
                return m;
            }
        }
        return null;
    }

    @Override
    public String toString() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
