/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.doctor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class SocketStatsTest {

    // iproute2 6.1's `ss -Htn state time-wait`: no state column, IPv6 in brackets, mapped IPv4 from Java sockets
    private static final String OUTPUT = String.join("\n",
            "0      0                 127.0.0.1:41872            127.0.0.1:8080",
            "0      0      [::ffff:127.0.0.1]:41873   [::ffff:127.0.0.1]:8080",
            "0      0                 127.0.0.1:41874            127.0.0.1:8081",
            "0      0                     [::1]:41875                [::1]:8080",
            "0      0                 10.0.0.5:41876              10.0.0.9:8080",
            "0      0       [fe80::1%eth0]:41877       [fe80::2%eth0]:8080",
            "");

    @Test
    void countsAllAndThoseToTheTargetsAddressesAndPort() {
        Target loopback = Target.parse("127.0.0.1:8080");
        assertEquals(new TimeWaitCount(6, 2), SocketStats.count(OUTPUT, Optional.of(loopback)));
        assertEquals(new TimeWaitCount(6, 0), SocketStats.count(OUTPUT, Optional.empty()));
        assertEquals(new TimeWaitCount(6, 1), SocketStats.count(OUTPUT, Optional.of(Target.parse("10.0.0.9:8080"))));
        assertEquals(new TimeWaitCount(0, 0), SocketStats.count("", Optional.of(loopback)));
    }
}
