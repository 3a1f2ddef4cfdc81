/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sampler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.engine.HttpProtocol;
import io.stampede.names.PluginNames;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The settings read from plain name/value pairs, as `stampede run` and `stampede doctor` read a plan's fields. */
class ProtocolSettingsTest {

    private static ProtocolSettings read(Map<String, String> fields) {
        return ProtocolSettings.read(name -> fields.getOrDefault(name, ""));
    }

    private static String refused(Map<String, String> fields) {
        return assertThrows(IllegalArgumentException.class, () -> read(fields)).getMessage();
    }

    @Test
    void readsHttp2ConcurrencyAndDefaults() {
        ProtocolSettings h2 = read(Map.of(PluginNames.PROTOCOL, " H2C ", PluginNames.H2_STREAMS, "20",
                PluginNames.CONNECTIONS_PER_THREAD, "3", PluginNames.PIPELINE_DEPTH, "1"));
        assertEquals(HttpProtocol.H2C, h2.protocol());
        assertEquals(3, h2.connections());
        assertEquals(20, h2.streams());
        assertEquals(0, h2.http2().maxRequestsPerConnection());
        ProtocolSettings h1 = read(Map.of(PluginNames.PIPELINE_DEPTH, "8", PluginNames.TARGET_RATE, "0.5"));
        assertEquals(HttpProtocol.HTTP_1_1, h1.protocol());
        assertEquals(1, h1.streams());
        assertEquals(8, h1.pipelineDepth());
        assertEquals(0.5, h1.targetRate());
    }

    @Test
    void everyBadValueIsNamedWithItsFix() {
        assertTrue(refused(Map.of(PluginNames.PROTOCOL, "h3")).startsWith("stampede.protocol: 'h3' is not a"
                + " protocol; enter http/1.1, h2"));
        assertTrue(refused(Map.of(PluginNames.PROTOCOL, "HTTP/2")).contains("enter h2 (HTTP/2 over TLS) or h2c"));
        assertEquals("stampede.h2.streams: 0 is out of range; enter one between 1 and 10000 (or leave it empty for 1)",
                refused(Map.of(PluginNames.PROTOCOL, "h2", PluginNames.H2_STREAMS, "0")));
        assertEquals("stampede.h2.streams: 'many' is not a whole number; enter one between 1 and 10000 (or leave it"
                + " empty for 1)", refused(Map.of(PluginNames.PROTOCOL, "h2c", PluginNames.H2_STREAMS, "many")));
        assertTrue(refused(Map.of(PluginNames.CONNECTIONS_PER_THREAD, "-1"))
                .startsWith("stampede.connections_per_thread: -1 is out of range; enter one between 1 and 1000000"));
        assertTrue(refused(Map.of(PluginNames.PROTOCOL, "h2", PluginNames.CONNECTIONS_PER_THREAD, "0"))
                .startsWith("stampede.connections_per_thread: 0 is out of range; enter one between 1 and 100000"));
        assertTrue(refused(Map.of(PluginNames.PROTOCOL, "h2c", PluginNames.PACING_MS, "10"))
                .startsWith("stampede.pacing_ms is an HTTP/1.1 setting and is not supported with stampede.protocol"
                        + " h2c; leave it empty"));
        assertTrue(refused(Map.of(PluginNames.PROTOCOL, "h2", PluginNames.H2_MAX_REQUESTS, "-5"))
                .startsWith("stampede.h2.max_requests: -5 is out of range"));
        assertTrue(refused(Map.of(PluginNames.PROTOCOL, "h2c", PluginNames.H2_PING_MS, "99"))
                .startsWith("stampede.h2.ping_ms: 99 ms is below 100 ms; enter 0 for no PINGs"));
        assertTrue(refused(Map.of(PluginNames.PROTOCOL, "h2c", PluginNames.H2_PING_MS, "1s"))
                .startsWith("stampede.h2.ping_ms: '1s' is not a whole number"));
        assertTrue(refused(Map.of(PluginNames.TARGET_RATE, "fast")).startsWith("stampede.target_rate: 'fast' is"
                + " not a rate"));
    }

    @Test
    void theProtocolMustMatchTheTransport() {
        ProtocolSettings h2 = read(Map.of(PluginNames.PROTOCOL, "h2"));
        h2.requireTransport(true, "tick TLS");
        assertEquals("stampede.protocol: h2 is HTTP/2 over TLS; tick TLS, or use h2c for HTTP/2 over cleartext",
                assertThrows(IllegalArgumentException.class, () -> h2.requireTransport(false, "tick TLS")).getMessage());
        ProtocolSettings h2c = read(Map.of(PluginNames.PROTOCOL, "h2c"));
        h2c.requireTransport(false, "tick TLS");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> h2c.requireTransport(true, "tick TLS"))
                .getMessage().contains("use h2 for HTTP/2 over TLS"));
        read(Map.of()).requireTransport(true, "tick TLS");
    }
}
