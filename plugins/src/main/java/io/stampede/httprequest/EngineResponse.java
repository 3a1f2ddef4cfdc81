/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.httprequest;

import io.stampede.engine.HttpProtocol;

/**
 * One response, copied out of the engine: the engine reuses its buffers for the next exchange (and, with shared
 * connections, for the next user).
 *
 * @param sentBytes the bytes sent (HTTP/2: header block and DATA), -1 for the HTTP/1.1 request's own length
 * @param protocol what carried it: http/1.1, h2, h2c or {@link HttpProtocol#ALPN_FALLBACK}
 */
record EngineResponse(ResponseHead head, byte[] body, boolean bodyCut, long headerBytes, long bodyBytes,
                      long connectEndNanos, long firstByteNanos, long endNanos, long sentBytes, String protocol) {
    EngineResponse(ResponseHead head, byte[] body, boolean bodyCut, long headerBytes, long bodyBytes,
                   long connectEndNanos, long firstByteNanos, long endNanos) {
        this(head, body, bodyCut, headerBytes, bodyBytes, connectEndNanos, firstByteNanos, endNanos, -1,
                HttpProtocol.HTTP_1_1.id());
    }
}
