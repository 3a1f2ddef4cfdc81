/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One request/response slot of a connection, whatever its protocol, reused for the slot's whole life so that a
 * request allocates nothing here: the owning JMeter thread arms it, the connection's event loop sends the request and
 * fills the response, then puts the exchange on the owner's {@link CompletionQueue}; the owner {@link #take takes}
 * it and reads the outcome (a {@link ReceivedResponse} or a failure named by {@link Failures}) with its times. It is
 * the engine's one completion type: every sampling mode and the result filler read it, every protocol extends it
 * (HTTP/1.1's {@code Http1Exchange}, HTTP/2's {@code Http2Exchange}).
 *
 * <p>The state field decides races: only the thread that moves it out of ARMED or SENT (the event loop on completion
 * or failure, the owner on a response timeout or an interrupt) publishes an outcome, so each outcome is delivered
 * exactly once.
 */
public abstract class Exchange extends CompletionQueue.Node {
    /** Armed by its owner, waiting to be sent (or for a connection). */
    public static final int ARMED = 0;
    /** On the wire, waiting for its response. */
    public static final int SENT = 1;
    /** Held for nanoseconds by the thread publishing an outcome (or checking which arm it holds). */
    public static final int COMPLETING = 2;
    protected static final int DONE = 3;
    protected static final int FAILED = 4;
    /** The owner holds it: its outcome was taken and it is not armed again yet; also the initial state. */
    public static final int HELD = 5;

    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(Exchange.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private volatile int state = HELD;
    private volatile long deadlineNanos;

    // Written by the owner before arming (published by the volatile state and the hand-off to the loop).
    /** Where the outcome goes: the queue of whoever armed it. */
    protected CompletionQueue queue;
    protected int responseBytesKept;
    private long responseTimeoutNanos;
    private long intendedNanos;

    // Written on the event loop (or the owner's own I/O) before the outcome is published.
    protected long connectStartNanos;
    protected long connectEndNanos;
    protected long sentNanos;
    protected long firstByteNanos;
    protected long doneNanos;
    private boolean retried;
    private IOException failure;

    /** Owner, before arming: clears the last outcome for a request meant to go at {@code intendedNanos}. */
    protected void begin(long intendedNanos, int responseBytesKept, int responseTimeoutMillis) {
        this.intendedNanos = intendedNanos;
        this.responseBytesKept = responseBytesKept;
        responseTimeoutNanos = responseTimeoutMillis * 1_000_000L;
        connectStartNanos = 0;
        connectEndNanos = 0;
        sentNanos = 0;
        firstByteNanos = 0;
        doneNanos = 0;
        failure = null;
        retried = false;
    }

    public final int state() {
        return state;
    }

    protected final void setState(int s) {
        state = s;
    }

    protected final boolean moveState(int from, int to) {
        return STATE.compareAndSet(this, from, to);
    }

    /** When the response timeout of a sent exchange passes (System.nanoTime()); 0 when not sent. */
    public final long deadlineNanos() {
        return deadlineNanos;
    }

    /** The response timeout starts: the request went out at {@code now}. */
    protected final void startResponseTimeout(long now) {
        deadlineNanos = now + responseTimeoutNanos;
    }

    protected final void clearDeadline() {
        deadlineNanos = 0;
    }

    /** Loop: the connection this exchange waited for was opened from {@code startNanos} to {@code endNanos}. */
    public final void connected(long startNanos, long endNanos) {
        connectStartNanos = startNanos;
        connectEndNanos = endNanos;
    }

    /** Loop: a response byte arrived at {@code now}; the first one is the Latency. */
    public final void byteReceived(long now) {
        if (firstByteNanos == 0) {
            firstByteNanos = now;
        }
    }

    /** Whether the request already went once more on a new connection (it is sent again at most once). */
    public final boolean retried() {
        return retried;
    }

    /** The request goes once more on a new connection. */
    public final void retrying() {
        retried = true;
    }

    /** Loop: the response completed at {@code now}; the owner is woken unless {@code wake} is false. */
    protected final void succeed(long now, boolean wake) {
        doneNanos = now;
        complete(SENT, DONE, null, wake);
    }

    /** Any thread: fails the exchange if it is still waiting to be sent or for its response; true if it did. */
    public final boolean fail(IOException why) {
        for (;;) {
            int s = state;
            if (s == SENT || s == ARMED) {
                if (complete(s, FAILED, why, true)) {
                    return true;
                }
            } else if (s == COMPLETING) {
                Thread.onSpinWait(); // another thread holds it for nanoseconds (an outcome, a send, an arm checked)
            } else {
                return false; // settled, or held by its owner
            }
        }
    }

    protected final boolean complete(int from, int to, IOException why, boolean wake) {
        if (!moveState(from, COMPLETING)) {
            return false;
        }
        publish(to, why, wake);
        return true;
    }

    /**
     * Holder of COMPLETING: the outcome ({@code why} null for a response) goes to the owner's queue, which is woken
     * unless {@code wake} is false (a loop completing several in one read wakes it once, at the read's end).
     */
    protected final void publish(int to, IOException why, boolean wake) {
        failure = why;
        deadlineNanos = 0;
        state = to;
        if (wake) {
            queue.offer(this);
        } else {
            queue.add(this);
        }
    }

    /** The owner's own I/O (no loop, no queue): the outcome, a failure or (null) a response complete at {@code now}. */
    protected final void endOnCaller(IOException why, long nowNanos) {
        failure = why;
        doneNanos = why == null ? nowNanos : 0;
    }

    /**
     * Owner: fails the exchange with a response timeout if its deadline passed, and lets the connection drop what is
     * left of it ({@link #timedOut}).
     *
     * @return whether it did
     */
    public final boolean expireIfOverdue(long nowNanos) {
        long d = deadlineNanos;
        if (d == 0 || nowNanos - d < 0 || !complete(SENT, FAILED, Failures.responseTimeout(), true)) {
            return false;
        }
        timedOut();
        return true;
    }

    /** Owner, after a response timeout: the connection stops reading this response (closes or resets it). */
    protected abstract void timedOut();

    /** Owner: takes the outcome this exchange put on the queue; it stays held until armed again. */
    public final void take() {
        state = HELD;
    }

    /** Owner: whether the outcome taken is a failure; {@link #failure()} says which. */
    public final boolean failed() {
        return failure != null;
    }

    public final IOException failure() {
        return failure;
    }

    /** The response taken; valid until the next arm. */
    public abstract ReceivedResponse response();

    /** The request as a result shows it (URL, request text), in HTTP/1.1's form whatever carried it. */
    public abstract PreparedRequest requestShown();

    /** Bytes sent for the request, as the protocol put them on the wire. */
    public abstract long sentBytes();

    /** The protocol that carried it, as ALPN names it ({@code http/1.1}, {@code h2} ...); empty if it never went. */
    public abstract String negotiated();

    /** When the send was meant to happen (the schedule, for latency corrected for coordinated omission). */
    public final long intendedNanos() {
        return intendedNanos;
    }

    /** When this exchange started: the connect if it waited for one, else the write; 0 if it never got there. */
    public final long startNanos() {
        return connectStartNanos != 0 ? connectStartNanos : sentNanos;
    }

    /** Connect duration in ns, 0 when the exchange went out on an open connection. */
    public final long connectNanos() {
        return connectStartNanos != 0 && connectEndNanos != 0 ? connectEndNanos - connectStartNanos : 0;
    }

    /** When the first byte of the response arrived (HTTP/2: its first HEADERS frame). */
    public final long firstByteNanos() {
        return firstByteNanos;
    }

    /** When the response completed (0 when it failed). */
    public final long doneNanos() {
        return doneNanos;
    }
}
