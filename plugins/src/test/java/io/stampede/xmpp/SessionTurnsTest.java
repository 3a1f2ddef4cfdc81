/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.xmpp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.engine.xmpp.XmppSession;
import java.net.InetAddress;
import java.net.ServerSocket;
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
    void theThreadsOfAGroupTakeTheirPlacesOnTheRampInTurn() throws Exception {
        // Four threads started together, each with 2 sessions over a 400-ms ramp (200 ms apart): thread 2's places
        // start half a gap (100 ms) late, so the four threads' first logins come 50 ms apart, not all at once.
        assertEquals(List.of(0.0, 0.25, 0.5, 0.75), List.of(SessionTurns.phase(0, 4), SessionTurns.phase(1, 4),
                SessionTurns.phase(2, 4), SessionTurns.phase(3, 4)));
        assertEquals(0.0, SessionTurns.phase(7, 1));
        SessionTurns.registry(); // JMeter's thread context loads: untimed
        long before = System.nanoTime();
        SessionTurns t = SessionTurns.forLogin(2, 1000 * MS, 400 * MS, SessionTurns.phase(2, 4));
        assertEquals(0, t.nextTurn(0));
        long first = (System.nanoTime() - before) / MS;
        assertTrue(first >= 100 && first < 1000, "thread 2's first turn came after " + first + " ms");
        assertEquals(1, t.nextTurn(0));
        long second = (System.nanoTime() - before) / MS;
        assertTrue(second >= 300, "its second after " + second + " ms");
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

    /** A login element for a server that takes connections and never answers: every login runs until its timeout. */
    private static XmppLoginSampler loginTo(ServerSocket silent) {
        XmppLoginSampler login = new XmppLoginSampler();
        login.setProperty(XmppLoginSampler.HOST, "127.0.0.1");
        login.setProperty(XmppLoginSampler.PORT, Integer.toString(silent.getLocalPort()));
        login.setProperty(XmppLoginSampler.USER, "user{n}");
        login.setProperty(XmppLoginSampler.PASSWORD, "pw{n}");
        XmppSession.open(login.settings(99)).abort(); // the engine starts, the session's classes load: untimed
        return login;
    }

    @Test
    void aThreadStartsSeveralLoginsWithoutWaitingForAnyYetNoneSoonerThanHalfTheRampsGap() throws Exception {
        // Every login runs until its timeout (1 s). Five sessions over a 100-ms ramp (20 ms apart), all overdue when
        // the thread comes: it starts three logins at once (the bound), catching up half the ramp's gap (10 ms)
        // apart rather than together; when the first times out, its slot goes to a fourth, and the first turn
        // returned is the first login's, not one login after another's timeout.
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            XmppLoginSampler login = loginTo(silent);
            SessionTurns t = SessionTurns.forLogin(5, 0, 100 * MS);
            Thread.sleep(200);
            List<Long> starts = new ArrayList<>();
            long before = System.nanoTime();
            int first = t.nextTurn(0, 3, 1000 * MS, (i, at) -> {
                starts.add(at);
                return XmppSession.openAt(login.settings(i + 1), at);
            });
            long took = (System.nanoTime() - before) / MS;
            assertEquals(0, first);
            assertEquals(0, t.reported().index, "the turn reports the first login");
            long firstEnd = starts.get(0) + 1000 * MS;
            assertEquals(3, starts.stream().filter(at -> at - firstEnd < 0).count(), "logins under way before the "
                    + "first timed out: the bound, 3");
            assertEquals(4, starts.size(), "the slot the first freed went to a fourth before the first was reported");
            for (int k = 1; k < starts.size(); k++) {
                assertTrue(starts.get(k) - starts.get(k - 1) >= 10 * MS, "logins " + (k - 1) + " and " + k + " "
                        + (starts.get(k) - starts.get(k - 1)) / MS + " ms apart");
            }
            assertTrue(took >= 990 && took < 5000, "the first login's timeout ended the wait after " + took + " ms");
        }
    }

    @Test
    void aThreadThatFellBehindTheRampCatchesUpAndEndsItsLoginsOnTime() throws Exception {
        // Twenty sessions over a 2-s ramp (100 ms apart), four logins at once, each running 150 ms (its timeout).
        // After the first turn the thread is busy for 1 s (a slow roster, say): the logins due meanwhile (500-1100
        // ms) find no free place, and come late. The thread then starts them 50 ms apart (half the gap) until they
        // are back on the ramp: the last login starts at its place (1.9 s), so the thread's logins meet the asked
        // rate. A thread that kept its lateness (each login a whole gap after the last) would end 650 ms late.
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            XmppLoginSampler login = loginTo(silent);
            List<Long> starts = new ArrayList<>();
            long begin = System.nanoTime();
            SessionTurns t = SessionTurns.forLogin(20, 0, 2000 * MS);
            for (int k = 0; k < 20; k++) {
                t.nextTurn(1, 4, 150 * MS, (i, at) -> {
                    starts.add(at);
                    return XmppSession.openAt(login.settings(i + 1), at);
                });
                if (k == 0) {
                    Thread.sleep(1000);
                }
            }
            assertEquals(20, starts.size());
            for (int k = 1; k < starts.size(); k++) {
                long place = begin + k * 100 * MS;
                assertTrue(starts.get(k) - place >= 0, "login " + k + " started " + (place - starts.get(k)) / MS
                        + " ms before its place on the ramp");
                assertTrue(starts.get(k) - starts.get(k - 1) >= 50 * MS, "logins " + (k - 1) + " and " + k + " "
                        + (starts.get(k) - starts.get(k - 1)) / MS + " ms apart");
            }
            long late = (starts.get(19) - (begin + 1900 * MS)) / MS;
            assertTrue(late < 150, "the last login started " + late + " ms after its place on the ramp");
        }
    }

    @Test
    void aMessageGoesToEachOnlinePeerAlikeWhileTheThreadsOtherSessionsLogIn() {
        // 250 sessions, the first 10 online, the thread's own session among them: every draw names an online peer
        // other than itself, and the 9 peers are named equally often (a scan from a random start to the next online
        // session would name session 0 for 240 of 250 starts)
        int[] named = new int[250];
        for (int draw = 0; draw < 900; draw++) {
            int peer = SessionTurns.uniformPeer(250, 3, i -> i < 10, draw);
            assertTrue(peer >= 0 && peer < 10 && peer != 3, "peer " + peer);
            named[peer]++;
        }
        for (int i = 0; i < 10; i++) {
            assertEquals(i == 3 ? 0 : 100, named[i], "session " + i);
        }
        assertEquals(-1, SessionTurns.uniformPeer(250, 0, i -> i == 0, 7));
        assertEquals(-1, SessionTurns.uniformPeer(1, 0, i -> true, 7));
    }
}
