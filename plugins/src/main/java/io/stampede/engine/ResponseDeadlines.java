/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine;

import io.netty.channel.EventLoop;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * The response timeouts of the connections whose JMeter thread blocks in its own socket read
 * (HTTP/1.1's {@code ThreadIoConnection}). A read with a timeout costs three system calls on the JDK (a read that finds nothing,
 * a poll that waits, the read) where a plain blocking read costs one; so the reads block without a timeout and this
 * check, run every {@value #TICK_MILLIS} ms on one of the engine's event loops, closes the socket of a response that
 * is overdue, which ends the blocked read at once. A response timeout therefore fires up to one tick late. Each
 * connection is watched from its connect to its close; a check costs one volatile read per connection.
 */
public final class ResponseDeadlines {
    static final long TICK_MILLIS = 10;

    /** A connection whose owner blocks in a read without a timeout. */
    public interface Watched {
        /** Closes the socket if the response in flight is overdue at {@code nowNanos}, ending the owner's read. */
        void expireIfOverdue(long nowNanos);
    }

    private final Set<Watched> watched = ConcurrentHashMap.newKeySet();
    private final EventLoop loop;
    private volatile boolean started;

    ResponseDeadlines(EventLoop loop) {
        this.loop = loop;
    }

    /** Watches {@code c} until {@link #forget}; the first connection starts the periodic check. */
    public void watch(Watched c) {
        watched.add(c);
        if (!started) {
            start();
        }
    }

    public void forget(Watched c) {
        watched.remove(c);
    }

    private synchronized void start() {
        if (started) {
            return;
        }
        try {
            loop.scheduleAtFixedRate(this::expireOverdue, TICK_MILLIS, TICK_MILLIS, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException stopping) {
            // The engine is shutting down: its connections are about to be replaced, not timed.
        }
        started = true;
    }

    private void expireOverdue() {
        long now = System.nanoTime();
        for (Watched c : watched) {
            c.expireIfOverdue(now);
        }
    }
}
