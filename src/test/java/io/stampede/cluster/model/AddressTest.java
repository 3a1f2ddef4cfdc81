/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AddressTest {

    @Test
    void parsesAndPrintsDottedQuads() {
        assertEquals("10.77.0.100", Ipv4.parse("10.77.0.100").toString());
        assertEquals("255.255.255.255", Ipv4.parse("255.255.255.255").toString());
        assertEquals("10.77.0.101", Ipv4.parse("10.77.0.100").plus(1).toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"10.0.0", "10.0.0.0.1", "10.0.0.256", "10.0.0.-1", "10.0.0.01", "a.b.c.d", "10..0.1", ""})
    void refusesMalformedAddresses(String text) {
        assertNull(Ipv4.parse(text));
    }

    @Test
    void networksContainTheirHostsAndReserveNetworkAndBroadcast() {
        Cidr net = Cidr.parse("10.77.0.9/24");
        assertEquals("10.77.0.0/24", net.toString());
        assertTrue(net.contains(Ipv4.parse("10.77.0.200")));
        assertFalse(net.contains(Ipv4.parse("10.77.1.1")));
        assertTrue(net.isReserved(Ipv4.parse("10.77.0.0")));
        assertTrue(net.isReserved(Ipv4.parse("10.77.0.255")));
        assertFalse(net.isReserved(Ipv4.parse("10.77.0.1")));
        assertNull(Cidr.parse("10.77.0.0/31"));
        assertNull(Cidr.parse("10.77.0.0"));
    }
}
