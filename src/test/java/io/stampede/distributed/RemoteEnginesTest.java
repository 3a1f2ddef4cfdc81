/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.distributed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class RemoteEnginesTest {

    @Test
    void parsesHostsWithAndWithoutPorts() {
        RemoteEngines e = RemoteEngines.parse("10.0.0.11, injector-2.lan:2099 ,127.0.0.1:41099");
        assertEquals(List.of(new RemoteEngine("10.0.0.11", 1099), new RemoteEngine("injector-2.lan", 2099),
                new RemoteEngine("127.0.0.1", 41099)), e.engines());
        assertEquals("10.0.0.11:1099,injector-2.lan:2099,127.0.0.1:41099", e.jmeterList());
        assertEquals(3, e.size());
    }

    @Test
    void badEntriesNameTheFieldAndTheFix() {
        assertMessage("h:99999", "--remote h:99999", "port 99999 is not a TCP port");
        assertMessage("h:0", "--remote h:0", "use 1 to 65535");
        assertMessage("h:abc", "--remote h:abc", "port 'abc' is not a number");
        assertMessage("a,,b", "--remote a,,b", "an entry is empty");
        assertMessage(" ", "--remote is empty", "e.g. --remote");
        assertMessage("a:1,a:1", "--remote a:1,a:1", "listed twice");
        assertMessage("::1", "--remote", "IPv6");
        assertMessage("bad host:1", "--remote", "not a host name");
    }

    @Test
    void loopbackEnginesCallBackOnLoopback() {
        RemoteEngines local = RemoteEngines.parse("127.0.0.1:41099,localhost:41199");
        assertTrue(local.allLoopback());
        assertEquals("127.0.0.1", local.callbackAddress().orElseThrow());
        assertFalse(RemoteEngines.parse("127.0.0.1,192.0.2.10").allLoopback());
    }

    private static void assertMessage(String list, String... parts) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RemoteEngines.parse(list));
        for (String p : parts) {
            assertTrue(e.getMessage().contains(p), e.getMessage());
        }
    }
}
