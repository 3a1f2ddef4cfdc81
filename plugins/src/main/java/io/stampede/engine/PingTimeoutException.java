/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine;

import io.stampede.engine.http2.Http2Options;

import java.io.IOException;

/**
 * An HTTP/2 connection was closed as dead: with PINGs on ({@link Http2Options#pingIntervalMillis}), nothing came from
 * the server for an interval, then nothing for another one after our PING, not even its acknowledgement. The streams
 * it carried fail with this; the next request opens a new connection.
 */
public final class PingTimeoutException extends IOException {
    private static final long serialVersionUID = 1L;

    public PingTimeoutException(String message) {
        super(message);
    }
}
