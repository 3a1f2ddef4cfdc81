/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.httprequest;

import org.apache.jmeter.protocol.http.sampler.HTTPSamplerBase;

import java.lang.reflect.Field;

/**
 * When JMeter's {@link HTTPSamplerBase#readResponse} would give back exactly the bytes received: no MD5 ("Save
 * response as MD5 hash" off) and no truncation ({@code httpsampler.max_bytes_to_store_per_request}, as JMeter read
 * it, unset or not exceeded). The engine has the whole body in an array of its own already, so that case skips the
 * method's 8 KB read buffer and output stream per sample; the latency it also sets is the engine's anyway.
 */
final class ResponseData {
    /** JMeter's own limit (read once by HTTPSamplerBase); -1 if it cannot be read, which keeps every sample on it. */
    private static final int MAX_BYTES_TO_STORE = jmeterLimit();

    private ResponseData() {
    }

    /** Whether readResponse would store a body of {@code length} bytes as it is. */
    static boolean storedAsReceived(HTTPSamplerBase element, int length) {
        return MAX_BYTES_TO_STORE >= 0 && (MAX_BYTES_TO_STORE == 0 || length <= MAX_BYTES_TO_STORE)
                && !element.useMD5();
    }

    /**
     * JMeter's {@code httpsampler.max_bytes_to_store_per_request} as HTTPSamplerBase read it, 0 when off or unknown
     * (readResponse then still applies its own).
     */
    static int storeLimit() {
        return Math.max(0, MAX_BYTES_TO_STORE);
    }

    private static int jmeterLimit() {
        try {
            Field f = HTTPSamplerBase.class.getDeclaredField("MAX_BYTES_TO_STORE_PER_REQUEST");
            f.setAccessible(true);
            return Math.max(0, f.getInt(null));
        } catch (ReflectiveOperationException | RuntimeException e) {
            return -1;
        }
    }
}
