/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.httprequest;

import io.stampede.names.PluginNames;
import java.io.IOException;

/**
 * A response body larger than {@link PluginNames#HTTPREQUEST_MAX_BODY_BYTES} while JMeter's own limit is off: the sample fails with
 * {@code Non HTTP response code: io.stampede.httprequest.BodyTooLargeException}, its bytes counted, and the run goes
 * on. Its class name is the response code JMeter shows, so it says what happened.
 */
public final class BodyTooLargeException extends IOException {
    private static final long serialVersionUID = 1L;

    private BodyTooLargeException(String message) {
        super(message);
    }

    static BodyTooLargeException received(long bytes, int max) {
        return new BodyTooLargeException("the response body of " + bytes + " bytes is larger than "
                + PluginNames.HTTPREQUEST_MAX_BODY_BYTES + " (" + max + " bytes); raise it, or set "
                + "httpsampler.max_bytes_to_store_per_request to keep only the first bytes");
    }

    static BodyTooLargeException decoded(String coding, long received, int max) {
        return new BodyTooLargeException("the response body (" + received + " bytes of Content-Encoding " + coding
                + ") decodes to more than " + PluginNames.HTTPREQUEST_MAX_BODY_BYTES + " (" + max + " bytes), e.g. a "
                + "decompression bomb; raise it, or set httpsampler.max_bytes_to_store_per_request to keep only the "
                + "first bytes");
    }
}
