/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine;

import io.netty.handler.codec.http2.Http2Error;

import java.io.IOException;

/** The server reset an HTTP/2 stream (RST_STREAM); the message names the error code, e.g. REFUSED_STREAM (0x7). */
public final class StreamResetException extends IOException {
    private static final long serialVersionUID = 1L;

    public StreamResetException(int streamId, long errorCode) {
        super("HTTP/2 stream " + streamId + " reset by the server: " + codeName(errorCode));
    }

    /** An HTTP/2 error code as RFC 9113 §7 names it, with its number: {@code REFUSED_STREAM (0x7)}. */
    public static String codeName(long code) {
        Http2Error e = Http2Error.valueOf(code);
        return (e == null ? "UNKNOWN" : e.name()) + " (0x" + Long.toHexString(code) + ')';
    }
}
