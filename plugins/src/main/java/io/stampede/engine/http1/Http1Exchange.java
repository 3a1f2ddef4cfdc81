/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.http1;

import io.stampede.engine.CompletionQueue;
import io.stampede.engine.Failures;
import io.stampede.engine.PreparedRequest;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * One request/response slot of an {@link Http1Connection}, reused for the slot's whole life so that a request
 * allocates nothing here: the owning JMeter thread {@link #arm arms} it with its {@link CompletionQueue}, a request
 * and a send time, the connection's event loop sends it and frames its response, then puts it on that queue; the
 * owner {@link #take takes} it, reads the outcome and arms it again. A connection has as many exchanges as its
 * pipelining depth. The owner is whoever armed it last: a pooled connection changes hands between samples.
 *
 * <p>The state field decides races: only the thread that moves it out of ARMED or SENT (the event loop on completion
 * or failure, the owner on a response timeout) publishes an outcome, so each outcome is delivered exactly once.
 */
public final class Http1Exchange extends CompletionQueue.Node implements Runnable {
    public static final int ARMED = 0;
    public static final int SENT = 1;
    public static final int COMPLETING = 2;
    private static final int DONE = 3;
    private static final int FAILED = 4;
    /** The owner holds it: its outcome was taken and it is not armed again yet; also the initial state. */
    static final int HELD = 5;

    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(Http1Exchange.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Http1Connection connection;
    final ResponseFramer framer = new ResponseFramer();
    private volatile int state = HELD;
    private volatile long deadlineNanos;

    // Written by the owner before arming (published by the volatile state and the executor hand-off).
    /** Where the outcome goes: the queue of whoever armed it (a pooled connection changes hands between samples). */
    CompletionQueue queue;
    PreparedRequest request;
    int responseBytesKept;
    private long responseTimeoutNanos;
    private long intendedNanos;
    /** Counts the arms, so that the loop can tell a request it was given from one armed again after it. */
    private int generation;

    /** Event loop: the generation last {@link Http1Connection#submit submitted}. */
    int submittedGeneration;

    // Written on the event loop before the outcome is published.
    long connectStartNanos;
    long connectEndNanos;
    long sentNanos;
    long firstByteNanos;
    long doneNanos;
    boolean retried;
    private IOException failure;

    Http1Exchange(Http1Connection connection) {
        this.connection = connection;
    }

    /**
     * Owner: sends {@code req} at {@code sendAtNanos} (System.nanoTime(); now or in the past: at once); its outcome
     * goes to {@code to}, the queue of the thread arming it.
     */
    public void arm(CompletionQueue to, PreparedRequest req, long sendAtNanos, int responseBytesKept,
                    int responseTimeout) {
        queue = to;
        beginOnCaller(req, sendAtNanos, responseBytesKept);
        responseTimeoutNanos = responseTimeout * 1_000_000L;
        generation++;
        state = ARMED;
        try {
            long delay = sendAtNanos - System.nanoTime();
            if (delay > 0) {
                connection.loop().schedule(this, delay, TimeUnit.NANOSECONDS);
            } else {
                connection.dispatch(this);
            }
        } catch (RejectedExecutionException e) {
            complete(ARMED, FAILED, Failures.engineStopped());
        }
    }

    /**
     * Clears the last outcome for a request sent at {@code startNanos}; on its own, for the caller's own I/O
     * ({@link ThreadIoConnection}: filled on the calling thread, with no queue and no event loop).
     */
    void beginOnCaller(PreparedRequest req, long startNanos, int responseBytesKept) {
        request = req;
        intendedNanos = startNanos;
        this.responseBytesKept = responseBytesKept;
        connectStartNanos = 0;
        connectEndNanos = 0;
        sentNanos = 0;
        firstByteNanos = 0;
        doneNanos = 0;
        failure = null;
        retried = false;
    }

    /** The caller's own I/O: the outcome, a failure or (null) a response complete at {@code nowNanos}. */
    void endOnCaller(IOException why, long nowNanos) {
        failure = why;
        doneNanos = why == null ? nowNanos : 0;
    }

    /** The armed send, on the connection's event loop. */
    @Override
    public void run() {
        if (state == ARMED) {
            connection.submit(this);
        }
    }

    public int state() {
        return state;
    }

    /** When the response timeout of a sent exchange passes (System.nanoTime()); 0 when not sent. */
    public long deadlineNanos() {
        return deadlineNanos;
    }

    /**
     * Event loop: the request the connection was given goes on the wire now. False when its owner failed it
     * meanwhile (a connect timeout, an interrupt), which a plain write of the state would overwrite, or armed it
     * again since (the new request's own submit is queued and sends it).
     */
    boolean sent(long now) {
        if (!holdSubmitted(ARMED)) {
            return false;
        }
        if (sentNanos == 0) {
            sentNanos = now;
        }
        deadlineNanos = now + responseTimeoutNanos;
        state = SENT;
        return true;
    }

    /** Event loop: a sent exchange goes back to waiting for a (new) connection, for a retry. */
    boolean unsend() {
        return STATE.compareAndSet(this, SENT, ARMED);
    }

    void succeed(long now) {
        doneNanos = now;
        complete(SENT, DONE, null);
    }

    /** Any thread: fails the exchange if it is still waiting to be sent or for its response; true if it did. */
    public boolean fail(IOException why) {
        for (;;) {
            int s = state;
            if (s == SENT || s == ARMED) {
                if (complete(s, FAILED, why)) {
                    return true;
                }
            } else if (s == COMPLETING) {
                Thread.onSpinWait(); // another thread holds it for nanoseconds (an outcome, a send, an arm checked)
            } else {
                return false; // settled, or held by its owner
            }
        }
    }

    /** Event loop, as it submits the exchange: the request armed now is the one in the connection's ring. */
    void submitted() {
        submittedGeneration = generation;
    }

    /**
     * Event loop: the owner gave up on the request the ring holds (a timeout) and armed the exchange again for its
     * next one, whose own submit is still queued; such an entry is stale. Reading the volatile state first publishes
     * the generation of that arm.
     */
    boolean armedAgain() {
        return state == ARMED && generation != submittedGeneration;
    }

    /**
     * Event loop: fails the request the connection was given, unless the owner has armed the exchange again since:
     * the next request must not fail with the old attempt's outcome (a connect the owner timed out and closed, whose
     * failure reaches the loop after the owner armed again).
     */
    boolean failSubmitted(IOException why) {
        return failSubmitted(SENT, why) || failSubmitted(ARMED, why);
    }

    private boolean failSubmitted(int from, IOException why) {
        if (!holdSubmitted(from)) {
            return false;
        }
        publish(FAILED, why);
        return true;
    }

    /**
     * Event loop: takes the exchange from {@code from} to COMPLETING if it is still the arm the connection was given;
     * one armed again since is put back as it was. Moving the state first keeps the owner from arming in between.
     */
    private boolean holdSubmitted(int from) {
        if (!STATE.compareAndSet(this, from, COMPLETING)) {
            return false;
        }
        if (generation == submittedGeneration) {
            return true;
        }
        state = from;
        return false;
    }

    private boolean complete(int from, int to, IOException why) {
        if (!STATE.compareAndSet(this, from, COMPLETING)) {
            return false;
        }
        publish(to, why);
        return true;
    }

    /** Holder of COMPLETING: the outcome ({@code why} null for a response) goes to the owner's queue. */
    private void publish(int to, IOException why) {
        failure = why;
        deadlineNanos = 0;
        state = to;
        queue.offer(this);
    }

    /**
     * Owner: fails the exchange with a response timeout if its deadline passed, closing the connection (the other
     * exchanges on it fail with it).
     *
     * @return whether it did
     */
    public boolean expireIfOverdue(long nowNanos) {
        long d = deadlineNanos;
        if (d == 0 || nowNanos - d < 0
                || !complete(SENT, FAILED, Failures.responseTimeout())) {
            return false;
        }
        connection.closeChannel();
        return true;
    }

    /** Owner: takes the outcome this exchange put on the queue; it stays held until armed again. */
    public void take() {
        state = HELD;
    }

    /** Owner: whether the outcome taken is a failure; {@link #failure()} says which. */
    public boolean failed() {
        return failure != null;
    }

    public IOException failure() {
        return failure;
    }

    /** The response taken; valid until the next {@link #arm}. */
    public ResponseFramer response() {
        return framer;
    }

    /** The request the outcome belongs to. */
    public PreparedRequest request() {
        return request;
    }

    /** The connection this exchange belongs to. */
    public Http1Connection connection() {
        return connection;
    }

    /** When the send was meant to happen (the schedule, for latency corrected for coordinated omission). */
    public long intendedNanos() {
        return intendedNanos;
    }

    /** When this exchange started: the connect if it waited for one, else the write; 0 if it never got there. */
    public long startNanos() {
        return connectStartNanos != 0 ? connectStartNanos : sentNanos;
    }

    /** Connect duration in ns, 0 when the exchange went out on an open connection. */
    public long connectNanos() {
        return connectStartNanos != 0 && connectEndNanos != 0 ? connectEndNanos - connectStartNanos : 0;
    }

    public long firstByteNanos() {
        return firstByteNanos;
    }

    /** When the response completed (0 when it failed). */
    public long doneNanos() {
        return doneNanos;
    }
}
