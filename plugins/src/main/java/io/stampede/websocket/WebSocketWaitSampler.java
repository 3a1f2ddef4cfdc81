/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.websocket;

import io.stampede.engine.websocket.WebSocketCall;

/**
 * Waits for a message that matches (a server push), with a timeout; a matching message that arrived earlier and
 * sits in the session's inbox counts at once.
 */
public class WebSocketWaitSampler extends WebSocketMessageSampler {
    private static final long serialVersionUID = 1L;

    @Override
    WebSocketCall.Kind kind() {
        return WebSocketCall.Kind.WAIT;
    }
}
