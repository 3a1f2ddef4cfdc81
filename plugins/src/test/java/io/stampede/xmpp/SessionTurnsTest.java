/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.xmpp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The order and times of a thread's session turns: the session due first, each keeping its place in the interval. */
class SessionTurnsTest {
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    @AfterEach
    void closeSessions() {
        SessionTurns.registry().closeAll();
    }

    private static List<Integer> turns(SessionTurns t, int count, int maxTurns) throws Exception {
        List<Integer> order = new ArrayList<>();
        for (int k = 0; k < count; k++) {
            order.add(t.nextTurn(maxTurns));
        }
        return order;
    }

    @Test
    void aSessionOnlineTakesItsNextTurnBeforeALaterSessionsFirst() throws Exception {
        // The ramp (3 s for 4 sessions) is longer than the pacing (1 s): session 0's second turn (at 1 s) comes
        // before session 2's login (at 1.5 s), as a user already online talks while others log in.
        SessionTurns t = SessionTurns.forLogin(4, 1000 * MS, 3000 * MS);
        assertEquals(List.of(0, 1, 0), turns(t, 3, 0));
    }

    @Test
    void eachSessionTakesAtMostItsTurnsAndOneMoreIsAFieldError() throws Exception {
        SessionTurns t = SessionTurns.forLogin(3, 0, 0);
        assertEquals(List.of(0, 1, 2, 0, 1, 2), turns(t, 6, 2));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> t.nextTurn(2));
        assertTrue(e.getMessage().contains(XmppLoginSampler.MAX_TURNS), e.getMessage());
        assertEquals(List.of(0, 1, 2, 0), turns(t, 4, 0), "no limit: in order, as many as asked");
    }

    @Test
    void sessionsAWholeIntervalLateKeepTheirPlacesInsteadOfComingAllAtOnce() throws Exception {
        // Two sessions half an interval apart; after a pause of two intervals both are late: each takes its turn at
        // its next place in the interval, so the two turns stay half an interval apart.
        SessionTurns t = SessionTurns.forLogin(2, 400 * MS, 400 * MS);
        turns(t, 2, 0);
        Thread.sleep(900);
        t.nextTurn(0);
        long first = System.nanoTime();
        t.nextTurn(0);
        long gap = (System.nanoTime() - first) / MS;
        assertTrue(gap >= 100, "the second late turn came " + gap + " ms after the first");
    }
}
