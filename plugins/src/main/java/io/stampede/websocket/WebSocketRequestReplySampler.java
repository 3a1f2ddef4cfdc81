/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.websocket;

import io.stampede.engine.websocket.WebSocketCall;

/**
 * Writes one message and waits for a message that matches (contains, regex, a JSON field's value): the sample's
 * elapsed time and Latency are the reply's latency, from the end of the write to the first byte of the matching
 * message. Messages that do not match count as unsolicited.
 */
public class WebSocketRequestReplySampler extends WebSocketMessageSampler {
    private static final long serialVersionUID = 1L;

    @Override
    WebSocketCall.Kind kind() {
        return WebSocketCall.Kind.SEND_AND_WAIT;
    }
}
