/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.httprequest;

import io.stampede.sampler.BodyLimits;
import org.apache.jmeter.protocol.http.sampler.HTTPSamplerBase;

/**
 * When JMeter's {@link HTTPSamplerBase#readResponse} would give back exactly the bytes received: no MD5 ("Save
 * response as MD5 hash" off) and no truncation ({@code httpsampler.max_bytes_to_store_per_request}, as JMeter read
 * it, unset or not exceeded). The engine has the whole body in an array of its own already, so that case skips the
 * method's 8 KB read buffer and output stream per sample; the latency it also sets is the engine's anyway.
 */
final class ResponseData {
    private ResponseData() {
    }

    /** Whether readResponse would store a body of {@code length} bytes as it is. */
    static boolean storedAsReceived(HTTPSamplerBase element, int length) {
        int store = BodyLimits.jmeterStore(); // -1 when unknown: every sample goes through readResponse
        return store >= 0 && (store == 0 || length <= store) && !element.useMD5();
    }
}
