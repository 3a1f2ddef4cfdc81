/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.httprequest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.BindException;
import java.net.ConnectException;
import java.net.InetAddress;

import org.apache.http.conn.HttpHostConnectException;
import org.junit.jupiter.api.Test;

/** The engine's connect failures read as stock's HttpClient 4 reports the same event, cause included. */
class StockFailuresTest {
    private static final InetAddress ADDRESS = InetAddress.getLoopbackAddress();

    @Test
    void outOfLocalPortsStaysABindExceptionAsInStock() {
        IOException e = StockFailures.of(
                new ConnectException("connect(..) failed: Cannot assign requested address"), "h", ADDRESS, 80, false);
        assertInstanceOf(BindException.class, e);
        assertEquals("Cannot assign requested address", e.getMessage());
    }

    @Test
    void aRefusedConnectIsHttpClientsHostConnectException() {
        IOException e = StockFailures.of(
                new ConnectException("connect(..) failed: Connection refused"), "h", ADDRESS, 80, false);
        assertInstanceOf(HttpHostConnectException.class, e);
        assertTrue(e.getMessage().endsWith("failed: Connection refused"), e.getMessage());
    }

    @Test
    void anUnreachableNetworkKeepsItsOwnReason() {
        IOException e = StockFailures.of(
                new ConnectException("connect(..) failed: Network is unreachable"), "h", ADDRESS, 80, false);
        assertInstanceOf(HttpHostConnectException.class, e);
        assertTrue(e.getMessage().endsWith("failed: Network is unreachable"), e.getMessage());
    }
}
