/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sampler;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The one owner of "how much of a body a sample holds", for the Stampede samplers and JMeter's HTTP Request. */
class BodyLimitsTest {

    @Test
    void theStampedeSamplersKeepTheirOwnBytesWithinJMetersStoreLimit() {
        assertEquals(65536, BodyLimits.keptBySampler(65536, 0), "JMeter's limit off: the sampler's field");
        assertEquals(1000, BodyLimits.keptBySampler(65536, 1000), "JMeter's limit set: no more than it");
        assertEquals(500, BodyLimits.keptBySampler(500, 1000), "a smaller field stays");
        assertEquals(0, BodyLimits.keptBySampler(0, 1000), "0 keeps nothing, as the field always did");
        assertEquals(65536, BodyLimits.keptBySampler(65536, -1), "JMeter's limit unknown: the field");
    }

    @Test
    void theHttpRequestKeepsJMetersStoreLimitElseTheWholeBodyUpToTheCap() {
        BodyLimits store = BodyLimits.of(1000, "");
        assertTrue(store.truncates(false));
        assertEquals(1000, store.rawKept(false));
        assertFalse(store.truncates(true), "with MD5 JMeter hashes the whole body");
        assertEquals(BodyLimits.DEFAULT_MAX, store.rawKept(true));
        BodyLimits whole = BodyLimits.of(0, "4096");
        assertFalse(whole.truncates(false));
        assertEquals(4096, whole.rawKept(false));
    }
}
