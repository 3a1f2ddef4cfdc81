/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine;

import java.io.IOException;

/** The HTTP/2 connection failed with a protocol error: ours, the server's, or a server that does not speak HTTP/2. */
public final class Http2ProtocolException extends IOException {
    private static final long serialVersionUID = 1L;

    public Http2ProtocolException(String message, Throwable cause) {
        super(message, cause);
    }
}
