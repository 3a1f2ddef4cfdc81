/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine;

import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

/** The kept body's growth past 1 GiB (computed, not allocated), its limit, and when it hands its buffer over. */
class KeptBodyTest {
    private static final int GIB = 1 << 30;

    @Test
    void growthPastOneGibibyteNeitherOverflowsNorAsksForMoreThanAnArrayHolds() {
        assertEquals(128, KeptBody.grown(64, 65, Integer.MAX_VALUE));
        assertEquals(1000, KeptBody.grown(512, 513, 1000), "doubling stops at the limit");
        assertEquals(KeptBody.MAX_ARRAY, KeptBody.grown(GIB + 1, GIB + 2, Integer.MAX_VALUE),
                "old code: (GIB + 1) * 2 overflowed to a negative size and every next chunk copied the whole body");
        assertEquals(KeptBody.MAX_ARRAY, KeptBody.grown(KeptBody.MAX_ARRAY - 5, KeptBody.MAX_ARRAY,
                Integer.MAX_VALUE));
        assertEquals(3 * (GIB / 2), KeptBody.grown(GIB, GIB + 1, 3 * (GIB / 2)));
    }

    @Test
    void smallBodiesAreCopiedAndKeepTheirBufferALargeOneIsTakenWhole() {
        KeptBody body = new KeptBody();
        body.add(Unpooled.wrappedBuffer(new byte[] {1, 2, 3}), 3, Integer.MAX_VALUE);
        byte[] small = body.copy();
        assertArrayEquals(new byte[] {1, 2, 3}, small);
        assertNotSame(body.buffer(), small);
        byte[] buffer = body.buffer();
        body.clear();
        assertSame(buffer, body.buffer(), "a small buffer is reused: the common response allocates nothing");

        int limit = KeptBody.RETAINED_CAPACITY + 1;
        body.add(Unpooled.wrappedBuffer(new byte[limit * 2]), limit * 2, limit);
        assertEquals(limit, body.length());
        byte[] large = body.buffer();
        assertSame(large, body.copy(), "filled exactly to the limit: handed over, not copied");
        assertEquals(0, body.length(), "taken: nothing of it stays");
        assertEquals(64, body.capacity());
    }
}
