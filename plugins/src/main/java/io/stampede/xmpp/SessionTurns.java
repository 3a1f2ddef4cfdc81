/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.xmpp;

import io.stampede.engine.Failures;
import io.stampede.engine.xmpp.XmppSession;
import io.stampede.sessions.UserSessions;

import java.io.InterruptedIOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntPredicate;

/**
 * The XMPP sessions of one JMeter thread (or virtual user): one session, or a group of many taken in turn with
 * pacing, kept across iterations in the thread's {@link UserSessions}. The login element picks the session due next
 * (each gets a turn every pacing interval, the first turns spread over the ramp) and makes it current; the other
 * elements act on the current one.
 */
final class SessionTurns implements UserSessions.Session {
    /** The name a thread keeps its XMPP sessions under: XMPP elements have no session name of their own. */
    private static final String NAME = "xmpp";

    private final XmppSession[] sessions;
    private final int[] turns;
    /** Per session: messages this thread's sessions sent it ({@code {peer}}) that it has not taken yet. */
    private final int[] owed;
    private final long[] dueNanos;
    private final long pacingNanos;
    /**
     * Half the ramp's gap between two logins: the closest two of this thread's logins start. A thread that fell behind
     * its places on the ramp (its logins' slots were full, or it was busy past them) starts its late logins this far
     * apart, up to twice its share of the rate, until it is back on its places; so the threads together log in the
     * users the ramp asked by its end, and by no time more than the ramp's places up to then.
     */
    private final long catchUpGapNanos;
    /** When this thread's last login started. */
    private long lastLoginNanos;
    private final LoginsInFlight logins = new LoginsInFlight();
    private LoginsInFlight.Login reported;
    private int current = -1;
    private volatile CompletableFuture<?> inFlight;
    private volatile boolean interrupted;

    private SessionTurns(int count, long pacingNanos, long rampNanos, double phase) {
        sessions = new XmppSession[count];
        turns = new int[count];
        owed = new int[count];
        dueNanos = new long[count];
        this.pacingNanos = pacingNanos;
        this.catchUpGapNanos = rampNanos / count / 2;
        long start = System.nanoTime();
        lastLoginNanos = start - catchUpGapNanos;
        long offset = (long) (rampNanos / count * phase);
        for (int i = 0; i < count; i++) {
            dueNanos[i] = start + offset + rampNanos * i / count;
        }
    }

    /** The current thread's registry of XMPP sessions (the one name this protocol keeps). */
    static UserSessions<SessionTurns> registry() {
        return UserSessions.of(SessionTurns.class);
    }

    /** The thread's sessions, made at its first login with {@code count} sessions (later calls get the same). */
    static SessionTurns forLogin(int count, long pacingNanos, long rampNanos) {
        return forLogin(count, pacingNanos, rampNanos, 0);
    }

    /**
     * As the other form, the thread's places on the ramp starting {@code phase} (0 to 1) of the gap between two of
     * them late: see {@link #phase}.
     */
    static SessionTurns forLogin(int count, long pacingNanos, long rampNanos, double phase) {
        return registry().open(NAME, same -> true, () -> new SessionTurns(count, pacingNanos, rampNanos, phase));
    }

    /**
     * Thread {@code threadNum} of a group of {@code threads}, started together: its places on the ramp start k ÷ n
     * of the gap late, so the threads' places together fall one every 1 ÷ rate, not n at once every gap.
     */
    static double phase(int threadNum, int threads) {
        return threads <= 1 ? 0 : (double) Math.floorMod(threadNum, threads) / threads;
    }

    /** The thread's sessions, or null before its first login. */
    static SessionTurns ofThread() {
        return registry().get(NAME);
    }

    int size() {
        return sessions.length;
    }

    /**
     * Moves to the session due first among those with fewer than {@code maxTurns} turns (0: no limit), after waiting
     * for its turn; returns its index. With pacing, each session keeps its own schedule (its first turn on the ramp,
     * then one every pacing interval), so sessions already online take their turns between the first turns of the
     * others; a session that fell a whole interval behind takes its next turn at its next place in the interval, not
     * at once, so late turns do not pile into a burst. Without pacing, the sessions take turns in order. Ends early,
     * with an InterruptedIOException, when the test stops. Starts no login (see the other form).
     */
    int nextTurn(int maxTurns) throws InterruptedIOException {
        return nextTurn(maxTurns, 0, 0, null);
    }

    /**
     * As {@link #nextTurn(int)}, and the sessions not logged in (first turns, or sessions the server closed) are opened
     * with {@code open}, each to connect at its turn on the engine's loop, while the thread goes on with the turns of
     * sessions online: up to {@code concurrent} logins are under way at once (those waiting for their turn included),
     * handed over in the order of their turns whenever a place is free, so a login starts on time while its thread
     * waits on another session. None starts before its turn, so the ramp (the plan's login rate) is never exceeded
     * over any time from the start; one that came late (no free place in time) starts at once, and the thread's next
     * late ones follow half the ramp's gap apart until they are back on their turns. A login that ended (bound,
     * failed, or {@code timeoutNanos} after its start) is the turn returned first; its session's turn is then the one
     * {@link #reported()} tells.
     */
    int nextTurn(int maxTurns, int concurrent, long timeoutNanos, Opener open)
            throws InterruptedIOException {
        reported = null;
        IntPredicate takesTurns = open == null ? i -> true : this::loggedIn;
        while (true) {
            if (interrupted || Thread.currentThread().isInterrupted()) {
                interrupted = false;
                throw Failures.interrupted();
            }
            long now = System.nanoTime();
            if (open != null) {
                startLogins(maxTurns, concurrent, timeoutNanos, open, now);
            }
            LoginsInFlight.Login ended = logins.takeEnded(now);
            if (ended != null) {
                reported = ended;
                return take(ended.index);
            }
            int i = first(maxTurns, takesTurns);
            if (i >= 0 && (pacingNanos == 0 && turns[i] > 0 || dueNanos[i] - now <= 0)) {
                dueNanos[i] += pacingNanos;
                return take(i);
            }
            if (i < 0 && logins.isEmpty()) {
                throw new IllegalArgumentException("each of this thread's " + sessions.length + " sessions had its "
                        + maxTurns + " turns (" + XmppLoginSampler.MAX_TURNS + "): loop this Login at most sessions "
                        + "× turns times, or raise the limit");
            }
            long wake = logins.nextDeadline(now);
            if (i >= 0 && dueNanos[i] - wake < 0) {
                wake = dueNanos[i];
            }
            LockSupport.parkNanos(this, Math.max(1, Math.min(wake - now, 100_000_000L)));
        }
    }

    /**
     * Hands over the logins of the sessions not logged in, in the order of their turns, while fewer than
     * {@code concurrent} are under way: each to start at its turn, at once when that has passed, and no sooner than
     * half the ramp's gap after the thread's previous login.
     */
    private void startLogins(int maxTurns, int concurrent, long timeoutNanos, Opener open, long now) {
        IntPredicate notLoggedIn = i -> !loggedIn(i);
        while (logins.running(now) < concurrent) {
            int i = first(maxTurns, notLoggedIn);
            if (i < 0) {
                return;
            }
            long start = dueNanos[i] - now > 0 ? dueNanos[i] : now;
            if (lastLoginNanos + catchUpGapNanos - start > 0) {
                start = lastLoginNanos + catchUpGapNanos;
            }
            lastLoginNanos = start;
            XmppSession s = open.open(i, start);
            replace(i, s);
            logins.add(i, s, start, timeoutNanos);
            dueNanos[i] += pacingNanos;
        }
    }

    /** Opens session {@code index}'s connection, to connect at {@code startNanos}, and starts its login. */
    interface Opener {
        XmppSession open(int index, long startNanos);
    }

    /** The login the last turn reports (its session's, just ended), or null when the session was logged in. */
    LoginsInFlight.Login reported() {
        return reported;
    }

    private int take(int i) {
        current = i;
        turns[i]++;
        return i;
    }

    /** The session {@code which} accepts that comes first: due first with pacing, else next in order; -1: none. */
    private int first(int maxTurns, IntPredicate which) {
        return pacingNanos > 0 ? dueFirst(maxTurns, which) : nextInOrder(maxTurns, which);
    }

    /** The next session after the current one with turns left that {@code which} accepts; -1 when none. */
    private int nextInOrder(int maxTurns, IntPredicate which) {
        int n = sessions.length;
        for (int k = 1; k <= n; k++) {
            int i = (current + k) % n;
            if ((maxTurns <= 0 || turns[i] < maxTurns) && !logins.holds(i) && which.test(i)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Of the sessions with turns left that {@code which} accepts, the one whose turn is due first (of equal ones, the
     * first after the current); a session whose later turn is a whole interval late moves to its next place in the
     * interval first.
     */
    private int dueFirst(int maxTurns, IntPredicate which) {
        long now = System.nanoTime();
        while (true) {
            int best = -1;
            int n = sessions.length;
            for (int k = 1; k <= n; k++) {
                int i = (current + k) % n;
                if ((maxTurns <= 0 || turns[i] < maxTurns) && (best < 0 || dueNanos[i] - dueNanos[best] < 0)
                        && !logins.holds(i) && which.test(i)) {
                    best = i;
                }
            }
            if (best < 0 || turns[best] == 0 || now - dueNanos[best] < pacingNanos) {
                return best;
            }
            dueNanos[best] += pacingNanos * ((now - dueNanos[best]) / pacingNanos + 1);
        }
    }

    /** The current session, null before a login or after a logout. */
    XmppSession current() {
        return current < 0 ? null : sessions[current];
    }

    int currentIndex() {
        return current;
    }

    /** How many turns the current session had, this one included (1 at its first). */
    int turn() {
        return current < 0 ? 0 : turns[current];
    }

    private void replace(int i, XmppSession s) {
        XmppSession old = sessions[i];
        if (old != null && old != s) {
            old.abort();
        }
        sessions[i] = s;
    }

    /** Another logged-in session of this thread, chosen at random: its index, or -1 when there is none. */
    int randomPeer() {
        return uniformPeer(sessions.length, current, this::online, ThreadLocalRandom.current().nextInt(1 << 30));
    }

    private boolean online(int i) {
        XmppSession s = sessions[i];
        return s != null && s.isReady() && s.jid() != null;
    }

    /** Whether session {@code i} can take a turn without a login: logged in, and not closed since. */
    private boolean loggedIn(int i) {
        XmppSession s = sessions[i];
        return s != null && s.isReady();
    }

    /**
     * The {@code (draw mod count)}-th of the indices below {@code n} other than {@code self} that {@code online}
     * accepts, or -1 when there is none: each online peer is equally likely. A scan from a random index to the next
     * online one would not be: while a thread's sessions log in, the first ones are online and the rest are not, and
     * every start past the online ones wraps to the first, which then receives most of the thread's messages.
     */
    static int uniformPeer(int n, int self, IntPredicate online, int draw) {
        int count = 0;
        for (int i = 0; i < n; i++) {
            if (i != self && online.test(i)) {
                count++;
            }
        }
        if (count == 0) {
            return -1;
        }
        int k = Math.floorMod(draw, count);
        for (int i = 0; i < n; i++) {
            if (i != self && online.test(i) && k-- == 0) {
                return i;
            }
        }
        return -1;
    }

    /** The full JID session {@code i} is bound to. */
    String jid(int i) {
        return sessions[i].jid();
    }

    /** A message to session {@code peer} was written: it is owed until that session takes a message. */
    void owe(int peer) {
        owed[peer]++;
    }

    /**
     * The current session took {@code messages} messages, or lost them (pushed out of its full inbox): that many
     * fewer owed to it.
     */
    void took(int messages) {
        if (current >= 0) {
            owed[current] = Math.max(0, owed[current] - messages);
        }
    }

    /** Messages sent to the current session by this thread's sessions and not taken yet. */
    int owed() {
        return current < 0 ? 0 : owed[current];
    }

    /** Gives up on the messages owed to the current session; returns how many they were. */
    int writeOff() {
        int n = owed();
        if (n > 0) {
            owed[current] = 0;
        }
        return n;
    }

    /** What the thread waits on now, so that stop-now can end it. */
    void waitingOn(CompletableFuture<?> f) {
        inFlight = f;
    }

    @Override
    public void interrupt() {
        interrupted = true;
        CompletableFuture<?> f = inFlight;
        if (f != null) {
            f.completeExceptionally(Failures.interrupted());
        }
    }

    @Override
    public void close() {
        for (int i = 0; i < sessions.length; i++) {
            if (sessions[i] != null) {
                sessions[i].abort();
                sessions[i] = null;
            }
        }
        logins.clear();
        reported = null;
        current = -1;
    }
}
