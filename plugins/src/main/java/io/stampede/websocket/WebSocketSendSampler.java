/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.websocket;

import io.stampede.engine.websocket.WebSocketCall;

/**
 * Writes one message (text, or binary as hex digits) on the thread's session; the sample's time is the write's.
 */
public class WebSocketSendSampler extends WebSocketMessageSampler {
    private static final long serialVersionUID = 1L;

    @Override
    WebSocketCall.Kind kind() {
        return WebSocketCall.Kind.SEND;
    }
}
