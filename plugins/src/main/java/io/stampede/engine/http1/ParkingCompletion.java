/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.http1;

import io.stampede.engine.CompletionQueue;
import io.stampede.engine.Failures;
import io.stampede.engine.PreparedRequest;

import java.util.concurrent.TimeUnit;

/**
 * The classic mode's completion: the JMeter thread sends one request at a time on a depth-1 {@link Http1Connection}
 * and parks until the event loop puts the outcome on this queue, a timeout passes or the sample is interrupted. The
 * thread owns the timeouts: the connect timeout covers the TCP connect and the TLS handshake, the response timeout
 * runs from the write. One per JMeter thread, shared by all its connections (one request is in flight at a time).
 */
public final class ParkingCompletion {
    private final Thread owner;
    private final CompletionQueue queue;
    private volatile boolean interrupted;

    /** For the calling thread, which is the only one to call {@link #send}. */
    public ParkingCompletion() {
        owner = Thread.currentThread();
        queue = new CompletionQueue(owner);
    }

    /**
     * Sends {@code request} on the connection's only exchange and parks until its outcome. The exchange returned is
     * taken: read its response or failure before the next send.
     */
    public Http1Exchange send(Http1Connection connection, PreparedRequest request, int responseBytesKept,
                         int connectTimeoutMillis, int responseTimeoutMillis) {
        Http1Exchange e = connection.exchanges()[0];
        interrupted = false;
        e.arm(queue, request, System.nanoTime(), responseBytesKept, responseTimeoutMillis);
        long connectTimeout = TimeUnit.MILLISECONDS.toNanos(connectTimeoutMillis);
        long responseTimeout = TimeUnit.MILLISECONDS.toNanos(responseTimeoutMillis);
        long connectDeadline = 0;
        for (;;) {
            if (queue.poll() != null) {
                e.take();
                return e;
            }
            if (interrupted || owner.isInterrupted()) {
                abort(connection, e, Failures.interrupted());
                continue;
            }
            int state = e.state();
            if (state == Http1Exchange.COMPLETING) {
                // For nanoseconds: an outcome is being published, or the loop is checking which arm it holds (to send
                // it or fail it); the next look decides, and a connect deadline must not be reset by it.
                Thread.onSpinWait();
                continue;
            }
            long now = System.nanoTime();
            long deadline;
            if (state == Http1Exchange.ARMED) {
                // Connecting (or reconnecting for a retry): the connect timeout counts from when that began.
                if (connectDeadline == 0) {
                    connectDeadline = now + connectTimeout;
                }
                deadline = connectDeadline;
                if (now - deadline >= 0) {
                    abort(connection, e, Failures.connectTimeout(connection.remote()));
                    continue;
                }
            } else {
                connectDeadline = 0;
                deadline = e.deadlineNanos();
                if (deadline != 0 && e.expireIfOverdue(now)) {
                    continue;
                }
            }
            // Woken by the completion, by interrupt(), or at the deadline (re-read: the state may have moved on). The
            // loop sends without waking us, so while connecting wait no longer than a response timeout: a response
            // deadline lies at least that far ahead, and is then checked in time.
            long wait = deadline == 0 ? connectTimeout : deadline - now;
            if (e.state() == Http1Exchange.ARMED || deadline == 0) {
                wait = Math.min(wait, responseTimeout);
            }
            if (queue.poll(Math.max(1, wait)) != null) {
                e.take();
                return e;
            }
        }
    }

    private static void abort(Http1Connection connection, Http1Exchange e, java.io.IOException why) {
        if (e.fail(why)) {
            connection.closeChannel();
        }
    }

    /** Any thread (stop test now): the send in progress ends at once with an InterruptedIOException. */
    public void interrupt() {
        interrupted = true;
        queue.wake();
    }
}
