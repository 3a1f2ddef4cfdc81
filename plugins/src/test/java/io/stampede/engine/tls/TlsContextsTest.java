/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.tls;

import io.netty.handler.ssl.OpenSslContext;
import io.netty.handler.ssl.SslContext;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class TlsContextsTest {
    /** The build ships BoringSSL for Linux x86-64 only; there h2's TLS must run on it, not fall back unnoticed. */
    @Test
    void linuxX8664RunsTlsOnBoringSslOfferingH2ThenHttp11() {
        assumeTrue(System.getProperty("os.name").startsWith("Linux") && "amd64".equals(System.getProperty("os.arch")),
                "BoringSSL is shipped for Linux x86-64 only");
        TlsContexts contexts = new TlsContexts();
        for (boolean trustAll : new boolean[] {true, false}) {
            SslContext c = contexts.get(true, trustAll);
            assertInstanceOf(OpenSslContext.class, c, "trustAll=" + trustAll);
            assertTrue(c.isClient());
            assertEquals(List.of("h2", "http/1.1"), c.applicationProtocolNegotiator().protocols());
            assertSame(c, contexts.get(true, trustAll), "one context per kind, so that sessions resume");
        }
    }
}
