/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sampler;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SourceAddressesTest {

    private static String text(SourceAddresses s) {
        return String.join(",", s.addresses().stream().map(InetAddress::getHostAddress).toList());
    }

    @Test
    void listsRangesAndCidrBlocks() {
        assertEquals("10.0.0.1,10.0.0.2", text(SourceAddresses.parse("10.0.0.1, 10.0.0.2")));
        assertEquals("10.0.0.254,10.0.0.255,10.0.1.0", text(SourceAddresses.parse("10.0.0.254-10.0.1.0")));
        assertEquals("192.168.1.5,192.168.1.6,192.168.1.7", text(SourceAddresses.parse("192.168.1.5-7")));
        assertEquals("10.9.0.1,10.9.0.2,10.9.0.3,10.9.0.4,10.9.0.5,10.9.0.6",
                text(SourceAddresses.parse("10.9.0.0/29")));
        assertEquals("10.9.0.7", text(SourceAddresses.parse("10.9.0.7/32")));
        assertEquals("0:0:0:0:0:0:0:1", text(SourceAddresses.parse("::1")));
        assertTrue(SourceAddresses.parse("  ").isEmpty());
    }

    @Test
    void mistakesNameThePropertyAndTheFix() {
        for (String bad : new String[] {"host.example", "10.0.0.9-10.0.0.1", "10.0.0.0/33", "10.0.0.0/8",
                "10.0.0.300", "10.0.0-5"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> SourceAddresses.parse(bad), bad);
            assertTrue(e.getMessage().startsWith("stampede.source_addresses: "), e.getMessage());
        }
    }
}
