/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sampler;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class IoModeTest {

    @Test
    void unsetMeansAutomatic() {
        assertEquals(IoMode.AUTO, IoMode.parse(null));
        assertEquals(IoMode.AUTO, IoMode.parse("  "));
        assertEquals(IoMode.ENGINE, IoMode.parse(" Engine "));
        assertEquals(IoMode.THREAD, IoMode.parse("thread"));
    }

    @Test
    void automaticGivesAThreadItsOwnLoopOnlyFromManyRequestsInFlight() {
        assertEquals(IoMode.ENGINE, IoMode.AUTO.resolve(IoMode.AUTO_THREAD_MIN - 1));
        assertEquals(IoMode.THREAD, IoMode.AUTO.resolve(IoMode.AUTO_THREAD_MIN));
        assertEquals(IoMode.THREAD, IoMode.THREAD.resolve(1));
        assertEquals(IoMode.ENGINE, IoMode.ENGINE.resolve(10_000));
        // connections x pipelining depth counts
        assertEquals(IoMode.THREAD, ScheduleSettings.of(8, 0, 0, 4, true, SourceAddresses.parse(""), IoMode.AUTO)
                .ioMode());
        assertEquals(IoMode.ENGINE, ScheduleSettings.of(8, 0, 0, 1, true, SourceAddresses.parse(""), IoMode.AUTO)
                .ioMode());
    }

    @Test
    void anUnknownModeNamesThePropertyAndTheChoices() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> IoMode.parse("epoll"));
        assertTrue(e.getMessage().startsWith("stampede.io_mode: 'epoll' is not an I/O mode"), e.getMessage());
        assertTrue(e.getMessage().contains("thread") && e.getMessage().contains("engine"), e.getMessage());
    }
}
