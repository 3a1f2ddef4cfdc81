/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.websocket;

import io.stampede.engine.CompletionQueue;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * What a JMeter thread asked of one session and how it went: one per session, reused for the session's life, so
 * a sample allocates no call. The thread arms it ({@link #arm}) and the session's event loop carries it out and
 * completes it onto the thread's {@link CompletionQueue}; or the thread expires it at its deadline. Each arming has
 * a new generation, stamped together with the state in one word, so a late event of an expired call can never
 * complete the next one.
 */
public final class WebSocketCall extends CompletionQueue.Node {
    /** What the thread asked for. */
    public enum Kind {
        /** Connect, TLS, the opening handshake. */
        OPEN,
        /** Write one message. */
        SEND,
        /** Write one message, then wait for a message that matches. */
        SEND_AND_WAIT,
        /** Wait for a message that matches (a message already in the inbox counts). */
        WAIT,
        /** The close handshake. */
        CLOSE
    }

    private static final int ARMED = 1;
    private static final int COMPLETING = 2;
    private static final int DONE = 3;
    private static final VarHandle STAMP;

    static {
        try {
            STAMP = MethodHandles.lookup().findVarHandle(WebSocketCall.class, "stamp", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final WebSocketSession session;
    /** Generation << 2 | state. */
    private volatile int stamp = DONE;

    /** Thread only: armed and not yet taken back by the thread (then it may sit in the thread's queue). */
    private boolean outstanding;

    // Set by the thread when arming.
    Kind kind;
    CompletionQueue queue;
    long intendedNanos;
    long timeoutNanos;
    boolean text;
    byte[] payload;
    Predicate<WebSocketMessage> match;
    int closeCode;
    String closeReason;
    String cookie;
    boolean keepUnsolicited;

    // Set by the event loop while it carries the call out; connected is read by the thread for its deadline.
    long startNanos;
    volatile long connectedNanos;
    long sentNanos;
    long firstByteNanos;
    long doneNanos;
    long inAtStart;
    long outAtStart;

    // The outcome, set by the event loop before it completes the call (or by the thread as it expires it).
    long bytesIn;
    long bytesOut;
    int status;
    String statusText;
    String responseHead;
    List<String> setCookies;
    WebSocketMessage reply;
    IOException failure;
    long unsolicited;
    long dropped;
    List<WebSocketMessage> unsolicitedKept;

    WebSocketCall(WebSocketSession session) {
        this.session = session;
    }

    /**
     * Thread: the call's next use; then {@link WebSocketSession#submit} hands it to the loop.
     *
     * @param at when it should start (System.nanoTime()); the deadline counts from there
     */
    public WebSocketCall arm(Kind k, CompletionQueue q, long at, long timeoutMillis) {
        kind = k;
        queue = q;
        intendedNanos = at;
        timeoutNanos = TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        payload = null;
        match = null;
        cookie = null;
        keepUnsolicited = false;
        connectedNanos = 0;
        startNanos = 0;
        sentNanos = 0;
        firstByteNanos = 0;
        doneNanos = 0;
        bytesIn = 0;
        bytesOut = 0;
        status = 0;
        statusText = null;
        responseHead = null;
        setCookies = null;
        reply = null;
        failure = null;
        unsolicitedKept = null;
        outstanding = true;
        int gen = (stamp >>> 2) + 1;
        stamp = gen << 2 | ARMED;
        return this;
    }

    /** Thread: the call came back (from the queue, or expired): it may be armed again. */
    public void taken() {
        outstanding = false;
    }

    /** Thread: armed and not yet taken back; arming it again could put it in a queue twice. */
    public boolean outstanding() {
        return outstanding;
    }

    /** Thread, before submitting: the message to write. */
    public WebSocketCall message(boolean isText, byte[] data) {
        text = isText;
        payload = data;
        return this;
    }

    /** Thread, before submitting: the condition a message must meet; null for any message. */
    public WebSocketCall matching(Predicate<WebSocketMessage> m, boolean keepOthers) {
        match = m;
        keepUnsolicited = keepOthers;
        return this;
    }

    /** Thread, before submitting an OPEN: the Cookie header of the thread's cookie manager, or null. */
    public WebSocketCall cookie(String header) {
        cookie = header;
        return this;
    }

    /** Thread, before submitting a CLOSE. */
    public WebSocketCall close(int code, String reason) {
        closeCode = code;
        closeReason = reason;
        return this;
    }

    int generation() {
        return stamp >>> 2;
    }

    boolean isArmed(int gen) {
        return stamp == (gen << 2 | ARMED);
    }

    /** Loop: takes the call of generation {@code gen} to complete it; false when it expired or was re-armed. */
    boolean claim(int gen) {
        return STAMP.compareAndSet(this, gen << 2 | ARMED, gen << 2 | COMPLETING);
    }

    /** Loop, after {@link #claim}: hands the outcome to the thread. */
    void publish() {
        stamp = (stamp & ~3) | DONE;
        queue.offer(this);
    }

    /**
     * Thread: ends the call with {@code why} unless the loop is completing it. False when the loop got there
     * first: the call then reaches the queue at once.
     */
    public boolean expire(IOException why) {
        int s = stamp;
        if ((s & 3) != ARMED || !STAMP.compareAndSet(this, s, (s & ~3) | DONE)) {
            return false;
        }
        failure = why;
        doneNanos = System.nanoTime();
        return true;
    }

    /** Thread: whether the call is armed and nobody claimed it yet. */
    public boolean pending() {
        return (stamp & 3) == ARMED;
    }

    /** Thread: whether the loop is publishing the outcome (it reaches the queue within nanoseconds). */
    public boolean completing() {
        return (stamp & 3) == COMPLETING;
    }

    /** When the thread gives up on the call: the handshake timeout counts from the connect. */
    public long deadlineNanos(long connectTimeoutNanos) {
        if (kind == Kind.OPEN) {
            long connected = connectedNanos;
            return connected != 0 ? connected + timeoutNanos : intendedNanos + connectTimeoutNanos + timeoutNanos;
        }
        return intendedNanos + timeoutNanos;
    }

    /** What the call waits for, for a timeout's message. */
    public String matchDescription() {
        return match == null ? "any message" : match.toString();
    }

    public WebSocketSession session() {
        return session;
    }

    public Kind kind() {
        return kind;
    }

    public long intendedNanos() {
        return intendedNanos;
    }

    /** When the loop began the call (0 if it never did: it expired first). */
    public long startNanos() {
        return startNanos;
    }

    public long connectedNanos() {
        return connectedNanos;
    }

    public long sentNanos() {
        return sentNanos;
    }

    public long firstByteNanos() {
        return firstByteNanos;
    }

    public long doneNanos() {
        return doneNanos;
    }

    public long bytesIn() {
        return bytesIn;
    }

    public long bytesOut() {
        return bytesOut;
    }

    /** The handshake's HTTP status, or the close code the server sent in the close handshake. */
    public int status() {
        return status;
    }

    public String statusText() {
        return statusText;
    }

    /** The handshake response's status line and headers, as received. */
    public String responseHead() {
        return responseHead;
    }

    public List<String> setCookies() {
        return setCookies;
    }

    public WebSocketMessage reply() {
        return reply;
    }

    public IOException failure() {
        return failure;
    }

    /** Messages the session received with nobody waiting, since it opened. */
    public long unsolicited() {
        return unsolicited;
    }

    /** Of those, how many were dropped from the full inbox. */
    public long dropped() {
        return dropped;
    }

    /** The inbox handed over with this call when asked for ({@link #matching}); null otherwise. */
    public List<WebSocketMessage> unsolicitedKept() {
        return unsolicitedKept;
    }

    public boolean text() {
        return text;
    }

    public byte[] payload() {
        return payload;
    }
}
