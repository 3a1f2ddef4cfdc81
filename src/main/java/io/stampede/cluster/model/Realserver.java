/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.model;

/** An nginx backend: its address, the port it serves on, its weight and how it suppresses ARP for the VIP. */
public record Realserver(String name, Ipv4 address, int port, int weight, ArpMethod arpMethod) {

    public Host host() {
        return new Host(name, address);
    }
}
