/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.websocket;

import java.io.IOException;

/**
 * The server closed the session (with a close frame, whose code and reason are kept, or by dropping the
 * connection: code 1006) while it was in use or since its last use. Its class name is what users see in the
 * JTL's responseCode; the message starts with the close code.
 */
public final class WebSocketClosedException extends IOException {
    private static final long serialVersionUID = 1L;

    /** RFC 6455's code for a connection lost without a close frame (never sent on the wire). */
    public static final int ABNORMAL = 1006;

    private final int code;

    public WebSocketClosedException(int code, String reason) {
        super("Closed by the server: " + code + (reason == null || reason.isEmpty() ? "" : " " + reason));
        this.code = code;
    }

    public int code() {
        return code;
    }
}
