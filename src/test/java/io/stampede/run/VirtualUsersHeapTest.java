/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.run;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The heap `stampede run` gives JMeter for virtual users: 512 MB + 36 KB a user, unless --heap says otherwise. */
class VirtualUsersHeapTest {
    @Test
    void withoutHeapManyUsersGetWhatTheyWant() {
        VirtualUsersHeap h = VirtualUsersHeap.choose(null, 100_000);
        assertEquals("4028m", h.heap(), "512 MB + 100,000 x 36 KB");
        assertTrue(h.note().contains("--heap 4028m for 100,000 virtual users"), h.note());
    }

    @Test
    void withoutHeapFewUsersOrNoneKeepTheUsualDefault() {
        assertEquals(new VirtualUsersHeap("2g", null), VirtualUsersHeap.choose(null, 2_000));
        assertEquals(new VirtualUsersHeap("2g", null), VirtualUsersHeap.choose(null, 0));
    }

    @Test
    void aGivenHeapIsKeptAndOneTooSmallIsSaidSo() {
        VirtualUsersHeap small = VirtualUsersHeap.choose("64m", 100_000);
        assertEquals("64m", small.heap());
        assertTrue(small.note().startsWith("--heap 64m is below the 4028m that 100,000 virtual users want"),
                small.note());
        assertEquals(new VirtualUsersHeap("6g", null), VirtualUsersHeap.choose("6g", 100_000));
        assertNull(VirtualUsersHeap.choose("64m", 0).note(), "no virtual users: nothing to say");
    }
}
