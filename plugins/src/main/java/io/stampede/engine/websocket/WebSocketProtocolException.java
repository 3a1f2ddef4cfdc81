/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.websocket;

import java.io.IOException;

/**
 * The peer broke RFC 6455 or RFC 7692 (a corrupt frame, a message over the size limit, a bad close code): the
 * session is closed with the matching close code. Its class name is what users see in the JTL's responseCode.
 */
public final class WebSocketProtocolException extends IOException {
    private static final long serialVersionUID = 1L;

    public WebSocketProtocolException(String message) {
        super(message);
    }
}
