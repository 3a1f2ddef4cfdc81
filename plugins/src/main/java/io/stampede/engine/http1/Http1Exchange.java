/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.http1;

import io.stampede.engine.CompletionQueue;
import io.stampede.engine.Exchange;
import io.stampede.engine.Failures;
import io.stampede.engine.HttpProtocol;
import io.stampede.engine.PreparedRequest;

import java.io.IOException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * One HTTP/1.1 request/response slot of an {@link Http1Connection} (or the one of a {@link ThreadIoConnection}): the
 * owning JMeter thread {@link #arm arms} it with its {@link CompletionQueue}, a request and a send time, the
 * connection's event loop sends it and frames its response, then puts it on that queue. A connection has as many
 * exchanges as its pipelining depth. The owner is whoever armed it last: a pooled connection changes hands between
 * samples. The states, the race rules and the times are the engine's {@link Exchange}'s; here is what HTTP/1.1 adds:
 * its framer, and the generations that tell the loop a request it was given from one armed again after it.
 */
public final class Http1Exchange extends Exchange implements Runnable {
    private final Http1Connection connection;
    final ResponseFramer framer = new ResponseFramer();

    // Written by the owner before arming (published by the volatile state and the executor hand-off).
    PreparedRequest request;
    /** Counts the arms, so that the loop can tell a request it was given from one armed again after it. */
    private int generation;

    /** Event loop: the generation last {@link Http1Connection#submit submitted}. */
    int submittedGeneration;

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
        request = req;
        begin(sendAtNanos, responseBytesKept, responseTimeout);
        generation++;
        setState(ARMED);
        try {
            long delay = sendAtNanos - System.nanoTime();
            if (delay > 0) {
                connection.loop().schedule(this, delay, TimeUnit.NANOSECONDS);
            } else {
                connection.dispatch(this);
            }
        } catch (RejectedExecutionException e) {
            complete(ARMED, FAILED, Failures.engineStopped(), true);
        }
    }

    /**
     * Clears the last outcome for a request sent at {@code startNanos}; on its own, for the caller's own I/O
     * ({@link ThreadIoConnection}: filled on the calling thread, with no queue and no event loop).
     */
    void beginOnCaller(PreparedRequest req, long startNanos, int responseBytesKept) {
        request = req;
        begin(startNanos, responseBytesKept, 0);
    }

    /** The caller's own I/O: the request went out at {@code now} (the first time, if it is sent again). */
    void sentOnCaller(long now) {
        if (sentNanos == 0) {
            sentNanos = now;
        }
    }

    /** The caller's own I/O: the outcome, a failure or (null) a response complete at {@code nowNanos}. */
    void endedOnCaller(IOException why, long nowNanos) {
        endOnCaller(why, nowNanos);
    }

    /** The armed send, on the connection's event loop. */
    @Override
    public void run() {
        if (state() == ARMED) {
            connection.submit(this);
        }
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
        startResponseTimeout(now);
        setState(SENT);
        return true;
    }

    /** The request goes on the wire: its response is read from the next byte on. */
    void readingStarts() {
        framer.reset(request.head(), responseBytesKept);
    }

    /** Event loop: a sent exchange goes back to waiting for a (new) connection, for a retry. */
    boolean unsend() {
        return moveState(SENT, ARMED);
    }

    void succeed(long now) {
        succeed(now, true);
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
        return state() == ARMED && generation != submittedGeneration;
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
        publish(FAILED, why, true);
        return true;
    }

    /**
     * Event loop: takes the exchange from {@code from} to COMPLETING if it is still the arm the connection was given;
     * one armed again since is put back as it was. Moving the state first keeps the owner from arming in between.
     */
    private boolean holdSubmitted(int from) {
        if (!moveState(from, COMPLETING)) {
            return false;
        }
        if (generation == submittedGeneration) {
            return true;
        }
        setState(from);
        return false;
    }

    /** After a response timeout the connection closes: the other exchanges on it fail with it. */
    @Override
    protected void timedOut() {
        connection.closeChannel();
    }

    /** The response taken; valid until the next {@link #arm}. */
    @Override
    public ResponseFramer response() {
        return framer;
    }

    /** The request the outcome belongs to. */
    public PreparedRequest request() {
        return request;
    }

    @Override
    public PreparedRequest requestShown() {
        return request;
    }

    @Override
    public long sentBytes() {
        return request.length();
    }

    @Override
    public String negotiated() {
        return HttpProtocol.HTTP_1_1.id();
    }

    /** The connection this exchange belongs to. */
    public Http1Connection connection() {
        return connection;
    }
}
