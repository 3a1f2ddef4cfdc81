/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.httprequest;

import org.apache.jmeter.protocol.http.sampler.HTTPSampleResult;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The body stored as received only where JMeter's readResponse stores exactly the bytes it reads. */
class ResponseDataTest {

    @Test
    void bodiesAreStoredAsJMeterReadsThemAndMd5StaysJMeters() throws Exception {
        EngineHttpRequest element = new EngineHttpRequest();
        Random random = new Random(14);
        for (int size : new int[] {0, 1, 18, 8191, 8192, 8193, 70_000, 300_000}) {
            byte[] body = new byte[size];
            random.nextBytes(body);
            assertTrue(ResponseData.storedAsReceived(element, size), "no MD5, no limit: " + size);
            for (long length : new long[] {size, -1}) {
                byte[] jmeters = element.readResponse(new HTTPSampleResult(), new ByteArrayInputStream(body), length);
                assertArrayEquals(jmeters, body, "size " + size + ", length " + length);
            }
        }
        element.setMD5(true);
        assertFalse(ResponseData.storedAsReceived(element, 18), "the MD5 is JMeter's to compute");
    }
}
