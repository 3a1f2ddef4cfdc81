/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.distributed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.regex.Matcher;
import org.junit.jupiter.api.Test;

/** The JMeter 5.6.3 console lines `stampede server` reads its engine object's port from, plain and SSL. */
class ServerReadyLineTest {

    @Test
    void plainAndSslExportLines() {
        Matcher plain = ServerCommand.EXPORTED.matcher("Created remote object: UnicastServerRef2 [liveRef: "
                + "[endpoint:[127.0.0.1:41100](local),objID:[-7ac4418c:1a1ff7309e6:-7fff, -76538725]]]");
        assertEquals(true, plain.find());
        assertEquals("41100", plain.group(2));
        Matcher ssl = ServerCommand.EXPORTED.matcher("Created remote object: UnicastServerRef2 [liveRef: "
                + "[endpoint:[127.0.0.1:43500,SSLRMIServerSocketFactory(host=/127.0.0.1, keyStoreLocation=/k.jks, "
                + "type=JKS, alias=rmi)](local),objID:[667ccf45:1a1ff97c77d:-7fff, 86657485]]]");
        assertEquals(true, ssl.find());
        assertEquals("43500", ssl.group(2));
        assertFalse(ServerCommand.EXPORTED.matcher("Using local port: 43500").find());
    }
}
