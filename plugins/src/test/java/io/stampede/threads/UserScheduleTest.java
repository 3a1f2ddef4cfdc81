/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.threads;

import io.stampede.names.PluginNames;
import java.util.Map;
import org.apache.jmeter.threads.AbstractThreadGroup;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class UserScheduleTest {
    @Test
    void theGroupsSettingsAreReadInSecondsAndABadOneIsRefusedByName() {
        Map<String, String> p = Map.of(AbstractThreadGroup.NUM_THREADS, "10", PluginNames.USERS_RAMP_UP, " 5 ",
                PluginNames.USERS_HOLD, "60");
        UserSchedule s = UserSchedule.read(name -> p.getOrDefault(name, ""), "group 'g'");
        assertEquals(new UserSchedule(10, 0, 5000, 60_000), s);
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> UserSchedule.read(
                name -> name.equals(PluginNames.USERS_DELAY) ? "-1" : "", "group 'g'"));
        assertEquals("group 'g': delay (s) (" + PluginNames.USERS_DELAY + ") is '-1'; enter a whole number of 0 or"
                + " more", bad.getMessage());
    }

    @Test
    void usersAreSpacedEvenlyOverTheRampUpAfterTheDelay() {
        UserSchedule s = new UserSchedule(4, 1000, 100_000, 120_000);
        assertEquals(1000, s.startOffset(0));
        assertEquals(26_000, s.startOffset(1));
        assertEquals(76_000, s.startOffset(3));
        assertTrue(s.timed());
        assertEquals(221_000, s.endOffset());
    }

    @Test
    void noHoldMeansUsersStopAfterTheirLoops() {
        UserSchedule s = new UserSchedule(1, 0, 5000, 0);
        assertFalse(s.timed());
        assertEquals(0, s.startOffset(0));
    }

    @Test
    void aHundredThousandUsersOverAHundredSecondsStartOneMillisecondApart() {
        UserSchedule s = new UserSchedule(100_000, 0, 100_000, 120_000);
        assertEquals(99_999, s.startOffset(99_999));
        assertEquals(50_000, s.startOffset(50_000));
    }

    @Test
    void negativeValuesAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new UserSchedule(-1, 0, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new UserSchedule(1, 0, -5, 0));
    }
}
