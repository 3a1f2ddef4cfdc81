/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.websocket;

import java.io.IOException;

/**
 * The peer is not a WebSocket endpoint: it answered the upgrade with a 1xx-3xx status other than 101, or with
 * bytes that are not HTTP. Its class name is what users see in the JTL's responseCode.
 */
public final class WebSocketNotUpgradedException extends IOException {
    private static final long serialVersionUID = 1L;

    public WebSocketNotUpgradedException(String message) {
        super(message);
    }
}
