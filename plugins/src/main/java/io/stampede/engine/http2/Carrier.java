/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.http2;

/**
 * Where the new streams of an {@link Http2Connection} go: its {@link Http2Session} or, after the server chose
 * HTTP/1.1 in ALPN, its {@link Http1Carrier}, one HTTP/1.1 exchange at a time. Event loop only.
 */
interface Carrier {
    /** Sends what waits for a stream, as far as there is room. */
    void sendPending();

    /** The owner gave up on {@code e}, sent on {@code streamId} (a response timeout): stop carrying it. */
    void cancel(int streamId, Http2Exchange e);
}
