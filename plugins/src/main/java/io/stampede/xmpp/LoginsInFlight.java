/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.xmpp;

import io.stampede.engine.xmpp.XmppSession;

import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.concurrent.locks.LockSupport;

/**
 * The logins one JMeter thread has started and not reported yet, in the order they started. A thread holding many
 * sessions starts a login when its session's turn comes and goes on while the server answers; each login is then
 * reported by the thread as one sample, once it ended (bound, failed, or past its timeout). Logins still in flight
 * when the thread stops are never reported: their sessions are closed with the thread's.
 */
final class LoginsInFlight {
    /** One login started: its session's index, its start and, once it ended, when (0 before). */
    static final class Login {
        final int index;
        final XmppSession session;
        final long startNanos;
        final long deadlineNanos;
        private volatile long endNanos;

        private Login(int index, XmppSession session, long startNanos, long timeoutNanos) {
            this.index = index;
            this.session = session;
            this.startNanos = startNanos;
            this.deadlineNanos = startNanos + timeoutNanos;
        }

        /** Whether the login ended, or its time is up at {@code now}: the thread can report it. */
        boolean ended(long now) {
            return endNanos != 0 || now - deadlineNanos >= 0;
        }

        /** When the login ended: bound or failed, else (timed out) its deadline. */
        long endNanos() {
            long end = endNanos;
            return end != 0 ? end : deadlineNanos;
        }
    }

    private final ArrayDeque<Login> started = new ArrayDeque<>();

    /**
     * Keeps the login of {@code session} (just opened) as in flight; the calling thread (the JMeter thread that
     * started it) is woken when it ends.
     */
    void add(int index, XmppSession session, long startNanos, long timeoutNanos) {
        Login login = new Login(index, session, startNanos, timeoutNanos);
        Thread owner = Thread.currentThread();
        session.login().whenComplete((times, failure) -> {
            login.endNanos = System.nanoTime();
            LockSupport.unpark(owner);
        });
        started.add(login);
    }

    /** Whether session {@code index} has a login in flight or not reported yet. */
    boolean holds(int index) {
        for (Login l : started) {
            if (l.index == index) {
                return true;
            }
        }
        return false;
    }

    boolean isEmpty() {
        return started.isEmpty();
    }

    /** Logins not ended at {@code now}: those the concurrent-logins bound counts. */
    int running(long now) {
        int n = 0;
        for (Login l : started) {
            if (!l.ended(now)) {
                n++;
            }
        }
        return n;
    }

    /** Removes and returns the first-started login that ended at {@code now}, or null when none has. */
    Login takeEnded(long now) {
        for (Iterator<Login> it = started.iterator(); it.hasNext(); ) {
            Login l = it.next();
            if (l.ended(now)) {
                it.remove();
                return l;
            }
        }
        return null;
    }

    /** The earliest deadline of the logins in flight (Long.MAX_VALUE-based when none): when to look again at most. */
    long nextDeadline(long now) {
        long next = now + Long.MAX_VALUE / 2;
        for (Login l : started) {
            if (l.deadlineNanos - next < 0) {
                next = l.deadlineNanos;
            }
        }
        return next;
    }

    /** Forgets them all: the thread's sessions are closing, and their logins with them. */
    void clear() {
        started.clear();
    }
}
