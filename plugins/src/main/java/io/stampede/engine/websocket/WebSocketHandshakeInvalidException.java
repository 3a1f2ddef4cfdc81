/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.websocket;

import java.io.IOException;

/**
 * The server switched protocols with a handshake RFC 6455 rejects: a wrong Sec-WebSocket-Accept, a subprotocol
 * or extension that was not offered, or none of the subprotocols asked for. Its class name is what users see in
 * the JTL's responseCode.
 */
public final class WebSocketHandshakeInvalidException extends IOException {
    private static final long serialVersionUID = 1L;

    public WebSocketHandshakeInvalidException(String message) {
        super(message);
    }
}
