/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.websocket;

import java.io.IOException;

/**
 * The connection was made but the server did not answer the upgrade within the handshake timeout. Its class name
 * is what users see in the JTL's responseCode.
 */
public final class WebSocketHandshakeTimeoutException extends IOException {
    private static final long serialVersionUID = 1L;

    public WebSocketHandshakeTimeoutException(String message) {
        super(message);
    }
}
