/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.websocket;

import io.stampede.engine.CompletionQueue;
import io.stampede.engine.ConnectTimeoutException;
import io.stampede.engine.Engine;
import io.stampede.engine.websocket.WebSocketCall;
import io.stampede.engine.websocket.WebSocketHandshakeTimeoutException;
import io.stampede.engine.websocket.WebSocketMessageTimeoutException;
import io.stampede.engine.websocket.WebSocketSession;
import io.stampede.sessions.UserSessions;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The sessions one JMeter thread (or virtual user) holds under one name: one, or many with a pacing. The thread arms
 * each session's call, parks on its {@link CompletionQueue} and owns the deadlines: a session holds no timer. With
 * one session every sample is one call; with many, the first message sample puts a call on every session, spread
 * over one pacing interval, and each sample then takes the next call to complete and puts the next one on that
 * session one interval after the last (the HTTP samplers' connection groups work the same way). Only the owning
 * thread calls it, except {@link #interrupt()}.
 */
final class SessionGroup implements UserSessions.Session {
    /** How often the owner looks for calls past their deadline while many are armed. */
    private static final long SCAN_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private final SessionSettings settings;
    private final WebSocketSession[] sessions;
    private final CompletionQueue queue = new CompletionQueue(Thread.currentThread());
    /** The handshakes' own queue, so that reopening sessions never takes the schedule's completions. */
    private final CompletionQueue opens = new CompletionQueue(Thread.currentThread());
    private boolean openedOnce;
    private long lastReopenNanos;
    private final long connectTimeoutNanos;
    /** The sampler whose calls run on the sessions' schedule (groups only), and what it asked for. */
    private Object driver;
    private Order order;
    private volatile boolean interrupted;

    /** What a message sampler asks of every session of a group, each time its turn comes. */
    record Order(WebSocketCall.Kind kind, boolean text, byte[] payload, MessageMatch match, boolean keepOthers,
                 long timeoutMillis) {
        WebSocketCall arm(WebSocketCall c, CompletionQueue q, long at) {
            return c.arm(kind, q, at, timeoutMillis).message(text, payload).matching(match, keepOthers);
        }
    }

    SessionGroup(SessionSettings settings, int firstSource) {
        this.settings = settings;
        this.sessions = new WebSocketSession[settings.sessions()];
        Engine engine = Engine.get();
        for (int i = 0; i < sessions.length; i++) {
            sessions[i] = new WebSocketSession(engine, engine.nextLoop(), settings.options(),
                    settings.source(firstSource + i));
        }
        connectTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(settings.options().connectTimeoutMillis());
    }

    SessionSettings settings() {
        return settings;
    }

    boolean single() {
        return sessions.length == 1;
    }

    /** Whether every session is open. */
    boolean allOpen() {
        for (WebSocketSession s : sessions) {
            if (!s.isOpen()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Opens every session that is not open and waits for their handshakes: the first time all of them, spread over
     * one pacing interval; later those the server closed (a group retries them at most once per pacing interval,
     * at least a second apart). A group's schedule keeps running meanwhile, and the reopened sessions join it.
     *
     * @return the handshake calls, completed, in order of completion; empty when there was nothing to open now;
     *     null when interrupted
     */
    List<WebSocketCall> open(String cookie) {
        if (single()) {
            // Closed by the server since its last use: that is this sample; the next open opens it again.
            IOException unreported = sessions[0].takeUnreportedEnd();
            if (unreported != null) {
                WebSocketCall c = sessions[0].call().arm(WebSocketCall.Kind.OPEN, opens, System.nanoTime(), 0);
                c.expire(unreported);
                c.taken();
                return List.of(c);
            }
        }
        long now = System.nanoTime();
        if (openedOnce && !single() && now - lastReopenNanos
                < TimeUnit.MILLISECONDS.toNanos(Math.max(1000, settings.pacingMillis()))) {
            return List.of();
        }
        openedOnce = true;
        lastReopenNanos = now;
        List<WebSocketSession> closed = new ArrayList<>();
        for (WebSocketSession s : sessions) {
            // A closed session whose call is still out reports its closure there first.
            if (!s.isOpen() && !s.call().outstanding()) {
                closed.add(s);
            }
        }
        long spread = closed.size() > 1 ? TimeUnit.MILLISECONDS.toNanos(settings.pacingMillis()) / closed.size() : 0;
        for (int i = 0; i < closed.size(); i++) {
            closed.get(i).call().arm(WebSocketCall.Kind.OPEN, opens, now + i * spread,
                    settings.handshakeTimeoutMillis()).cookie(cookie);
            closed.get(i).submit();
        }
        List<WebSocketCall> done = new ArrayList<>(closed.size());
        while (done.size() < closed.size()) {
            WebSocketCall c = next(opens, true);
            if (c == null) {
                return null;
            }
            done.add(c);
        }
        if (order != null) {
            long at = System.nanoTime();
            for (WebSocketSession s : closed) {
                if (s.isOpen()) {
                    order.arm(s.call(), queue, at).session().submit();
                }
            }
        }
        return done;
    }

    /**
     * One message call: on the only session, at once; on a group, the next call of the schedule to complete. The
     * caller reads the call and then calls {@link #rearm}.
     *
     * @return null when interrupted; else a call that completed or failed
     * @throws IllegalStateException when another sampler drives the group
     */
    WebSocketCall message(Object sampler, Order o) {
        if (single()) {
            o.arm(sessions[0].call(), queue, System.nanoTime()).session().submit();
            return next(queue, false);
        }
        if (driver == null) {
            driver = sampler;
            startSchedule(o);
        } else if (driver != sampler) {
            throw new IllegalStateException("The sessions of this name are paced by another sampler: with "
                    + WebSocketOpenSampler.SESSIONS_PER_THREAD + " above 1, one message sampler drives them; use a "
                    + "second session name for a second sampler");
        }
        order = o;
        for (WebSocketSession s : sessions) {
            if (s.call().outstanding()) {
                return next(queue, false);
            }
        }
        return noneOpen(o);
    }

    /**
     * No session of the group has a call out (all closed or never opened): one failed sample, after waiting for the
     * next reopen to be allowed, so the thread does not spin through failures.
     */
    private WebSocketCall noneOpen(Order o) {
        long wait = lastReopenNanos + TimeUnit.MILLISECONDS.toNanos(Math.max(1000, settings.pacingMillis()))
                - System.nanoTime();
        if (wait > 0) {
            java.util.concurrent.locks.LockSupport.parkNanos(this, wait);
        }
        WebSocketSession s = sessions[0];
        IOException why = s.ended() != null ? s.ended() : WebSocketSampler.notOpen();
        WebSocketCall c = o.arm(s.call(), queue, System.nanoTime());
        c.expire(why);
        c.taken();
        return c;
    }

    /** Puts a call on every open session, spread evenly over one pacing interval. */
    private void startSchedule(Order o) {
        order = o;
        long now = System.nanoTime();
        long spread = TimeUnit.MILLISECONDS.toNanos(settings.pacingMillis()) / sessions.length;
        for (int i = 0; i < sessions.length; i++) {
            if (sessions[i].isOpen()) {
                o.arm(sessions[i].call(), queue, now + i * spread).session().submit();
            }
        }
    }

    /** After a group's message call was read: its session's next call, one pacing interval after the last. */
    void rearm(WebSocketCall c) {
        if (single() || order == null || !c.session().isOpen()) {
            return;
        }
        long interval = TimeUnit.MILLISECONDS.toNanos(settings.pacingMillis());
        long at = order.kind() == WebSocketCall.Kind.WAIT ? System.nanoTime() : c.intendedNanos() + interval;
        order.arm(c, queue, at).session().submit();
    }

    /** The close handshake on every open session; the schedule stops. Returns the calls (null if interrupted). */
    List<WebSocketCall> close(int code, String reason, long timeoutMillis) {
        stopSchedule();
        List<WebSocketCall> armed = new ArrayList<>();
        long now = System.nanoTime();
        for (WebSocketSession s : sessions) {
            if (s.isOpen() || s.ended() != null && single()) {
                armed.add(s.call().arm(WebSocketCall.Kind.CLOSE, queue, now, timeoutMillis).close(code, reason));
                s.submit();
            }
        }
        List<WebSocketCall> done = new ArrayList<>(armed.size());
        while (done.size() < armed.size()) {
            WebSocketCall c = next(queue, false);
            if (c == null) {
                return null;
            }
            done.add(c);
        }
        return done;
    }

    private void stopSchedule() {
        driver = null;
        order = null;
        for (WebSocketSession s : sessions) {
            s.call().expire(new InterruptedIOException("schedule stopped"));
        }
        // Calls that were completing when the schedule stopped: their results are dropped, not reported later.
        for (WebSocketSession s : sessions) {
            while (s.call().completing()) {
                Thread.onSpinWait();
            }
        }
        while (queue.poll() != null) {
            Thread.onSpinWait();
        }
        for (WebSocketSession s : sessions) {
            s.call().taken();
        }
    }

    /**
     * The next call to complete on {@code q} or to pass its deadline, taken back. A call past its deadline fails
     * here: a handshake or close closes its connection, a message wait leaves the session open.
     *
     * @param handshakes whether the calls awaited are handshakes (on their own queue) or the rest
     */
    private WebSocketCall next(CompletionQueue q, boolean handshakes) {
        long nextScan = System.nanoTime();
        for (;;) {
            WebSocketCall c = (WebSocketCall) q.poll();
            if (c != null) {
                c.taken();
                return c;
            }
            if (interrupted) {
                interrupted = false;
                return null;
            }
            long now = System.nanoTime();
            long wait = SCAN_NANOS;
            if (now - nextScan >= 0) {
                for (WebSocketSession s : sessions) {
                    WebSocketCall a = s.call();
                    if (a.pending() && (a.kind() == WebSocketCall.Kind.OPEN) == handshakes) {
                        long deadline = a.deadlineNanos(connectTimeoutNanos);
                        if (now - deadline >= 0) {
                            if (expire(a)) {
                                a.taken();
                                return a;
                            }
                        } else if (single()) {
                            wait = deadline - now;
                        }
                    }
                }
                nextScan = now + Math.min(wait, SCAN_NANOS);
            }
            c = (WebSocketCall) q.poll(Math.max(1, nextScan - now));
            if (c != null) {
                c.taken();
                return c;
            }
        }
    }

    private boolean expire(WebSocketCall a) {
        IOException why = switch (a.kind()) {
            case OPEN -> a.connectedNanos() == 0
                    ? new ConnectTimeoutException("Could not connect to " + settings.options().remote() + " within "
                    + settings.options().connectTimeoutMillis() + " ms")
                    : new WebSocketHandshakeTimeoutException("No answer to the upgrade within "
                    + settings.handshakeTimeoutMillis() + " ms");
            case SEND -> new WebSocketMessageTimeoutException("Message not written within the timeout");
            case CLOSE -> new WebSocketMessageTimeoutException("No close frame from the server within the timeout");
            default -> new WebSocketMessageTimeoutException("No message matching " + a.matchDescription()
                    + " within the timeout");
        };
        if (!a.expire(why)) {
            return false;
        }
        if (a.kind() == WebSocketCall.Kind.OPEN || a.kind() == WebSocketCall.Kind.CLOSE) {
            a.session().closeAsync();
        }
        return true;
    }

    /** Any thread: the owner's wait ends at once. */
    @Override
    public void interrupt() {
        interrupted = true;
        queue.wake();
        opens.wake();
    }

    /** Owner: drops every session (a close frame 1001 where open); calls in flight end. */
    @Override
    public void close() {
        driver = null;
        order = null;
        for (WebSocketSession s : sessions) {
            s.call().expire(new InterruptedIOException("thread finished"));
            s.closeAsync();
        }
    }
}
