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

/**
 * The XMPP sessions of one JMeter thread (or virtual user): one session, or a group of many taken in turn with
 * pacing, kept across iterations in the thread's {@link UserSessions}. The login element picks the next session of
 * the group (each gets a turn every pacing interval, the first turns spread over the ramp) and makes it current; the
 * other elements act on the current one.
 */
final class SessionTurns implements UserSessions.Session {
    /** The name a thread keeps its XMPP sessions under: XMPP elements have no session name of their own. */
    private static final String NAME = "xmpp";

    private final XmppSession[] sessions;
    private final int[] turns;
    private final long[] dueNanos;
    private final long pacingNanos;
    private int current = -1;
    private volatile CompletableFuture<?> inFlight;
    private volatile boolean interrupted;

    private SessionTurns(int count, long pacingNanos, long rampNanos) {
        sessions = new XmppSession[count];
        turns = new int[count];
        dueNanos = new long[count];
        this.pacingNanos = pacingNanos;
        long start = System.nanoTime();
        for (int i = 0; i < count; i++) {
            dueNanos[i] = start + rampNanos * i / count;
        }
    }

    /** The current thread's registry of XMPP sessions (the one name this protocol keeps). */
    static UserSessions<SessionTurns> registry() {
        return UserSessions.of(SessionTurns.class);
    }

    /** The thread's sessions, made at its first login with {@code count} sessions (later calls get the same). */
    static SessionTurns forLogin(int count, long pacingNanos, long rampNanos) {
        return registry().open(NAME, same -> true, () -> new SessionTurns(count, pacingNanos, rampNanos));
    }

    /** The thread's sessions, or null before its first login. */
    static SessionTurns ofThread() {
        return registry().get(NAME);
    }

    int size() {
        return sessions.length;
    }

    /**
     * Moves to the next session of the group, after waiting for its turn (pacing); returns its index. Ends early,
     * with an InterruptedIOException, when the test stops.
     */
    int nextTurn() throws InterruptedIOException {
        int i = (current + 1) % sessions.length;
        if (pacingNanos > 0 || turns[i] == 0) {
            long due = dueNanos[i];
            for (long wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
                if (interrupted || Thread.currentThread().isInterrupted()) {
                    interrupted = false;
                    throw Failures.interrupted();
                }
                LockSupport.parkNanos(this, Math.min(wait, 100_000_000L));
            }
            dueNanos[i] = Math.max(due + pacingNanos, System.nanoTime() - pacingNanos);
        }
        current = i;
        turns[i]++;
        return i;
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

    void replaceCurrent(XmppSession s) {
        XmppSession old = sessions[current];
        if (old != null && old != s) {
            old.abort();
        }
        sessions[current] = s;
    }

    /** The full JID of another logged-in session of this thread, chosen at random; null when there is none. */
    String randomPeer() {
        int n = sessions.length;
        if (n < 2) {
            return null;
        }
        int start = ThreadLocalRandom.current().nextInt(n);
        for (int k = 0; k < n; k++) {
            int i = (start + k) % n;
            XmppSession s = sessions[i];
            if (i != current && s != null && s.isReady() && s.jid() != null) {
                return s.jid();
            }
        }
        return null;
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
        current = -1;
    }
}
