/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in compliance with
 * the License. You may obtain a copy of the License at http://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sampler;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class IoModeTest {

    @Test
    void unsetMeansTheThreadDoesItsOwnIo() {
        assertEquals(IoMode.THREAD, IoMode.parse(null));
        assertEquals(IoMode.THREAD, IoMode.parse("  "));
        assertEquals(IoMode.ENGINE, IoMode.parse(" Engine "));
        assertEquals(IoMode.THREAD, IoMode.parse("thread"));
    }

    @Test
    void anUnknownModeNamesThePropertyAndTheChoices() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> IoMode.parse("epoll"));
        assertTrue(e.getMessage().startsWith("stampede.io_mode: 'epoll' is not an I/O mode"), e.getMessage());
        assertTrue(e.getMessage().contains("thread") && e.getMessage().contains("engine"), e.getMessage());
    }
}
