/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.websocket;

import io.stampede.engine.tls.Tls;

import java.net.InetSocketAddress;
import java.net.URI;
import java.util.List;
import java.util.Map;

/**
 * How sessions to one endpoint are opened and kept: shared, immutable, by every session of a sampler's group.
 *
 * @param uri                the ws:// or wss:// URI (path and query go into the request line)
 * @param remote             the resolved server address
 * @param tls                TLS for wss (SNI, trust-all), null for ws
 * @param headers            extra handshake headers, in order
 * @param subprotocols       comma-separated subprotocols offered, null for none
 * @param compression        whether permessage-deflate (RFC 7692) is offered
 * @param maxMessageBytes    the largest message (all its fragments) accepted; a larger one closes the session (1009)
 * @param pingMillis         a ping every this many ms while open; 0 for none
 * @param connectTimeoutMillis the TCP connect timeout
 * @param inboxLimit         messages that arrived with nobody waiting kept for a later wait (oldest dropped)
 */
public record WebSocketOptions(URI uri, InetSocketAddress remote, Tls tls, List<Map.Entry<String, String>> headers,
                               String subprotocols, boolean compression, int maxMessageBytes, int pingMillis,
                               int connectTimeoutMillis, int inboxLimit) {
    public WebSocketOptions {
        headers = List.copyOf(headers);
    }
}
