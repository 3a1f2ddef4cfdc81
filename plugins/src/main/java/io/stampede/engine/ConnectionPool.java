/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine;

import java.io.InterruptedIOException;
import java.util.ArrayDeque;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The keep-alive connections the users of one engine share to one target (host, port, TLS), at most
 * {@code maxSize} of them. A user takes a lease for one request, with it an idle connection or the right to open
 * one, and gives both back after the response. A lease is what is limited, so no more than {@code maxSize}
 * connections are busy and a new one is opened only when none is idle: the pool never holds more than
 * {@code maxSize}. Leases are handed out first come, first served: a released lease goes straight to the oldest
 * waiter, so under a full pool no user waits much longer than the others. The most recently used connection is
 * reused first, so surplus ones go idle and the server's keep-alive timeout can close them.
 *
 * <p>Why not a fair {@link java.util.concurrent.Semaphore}: with tens of thousands of virtual users waiting, each
 * waiter that times out makes the semaphore's queue unlink it by walking the queue from its tail, so a burst of
 * timeouts costs time quadratic in the waiters; a 100,000-user run spent 70% of its CPU there and collapsed to
 * 400 req/s. Here a waiter that gives up is only marked; release skips marked ones as it meets them, in O(1) each.
 */
public final class ConnectionPool<C extends ConnectionPool.Pooled> {
    /** A connection a pool keeps between leases. */
    public interface Pooled {
        /** False once it cannot be used again (its event loop stopped, or it was closed). */
        boolean usable();

        /** Closes it for good. */
        void close();
    }

    private final String target;
    private final int maxSize;
    private final ReentrantLock lock = new ReentrantLock();
    /** Leases not handed out; guarded by {@link #lock}. */
    private int free;
    /** Users waiting for a lease, oldest first; guarded by {@link #lock}. */
    private final ArrayDeque<Waiter> waiters = new ArrayDeque<>();
    private final ConcurrentLinkedDeque<C> idle = new ConcurrentLinkedDeque<>();

    /** One user waiting; its fields are written under the pool's lock. */
    private static final class Waiter {
        final Thread thread = Thread.currentThread();
        volatile boolean granted;
        boolean gaveUp;
    }

    ConnectionPool(String target, int maxSize) {
        if (maxSize < 1) {
            throw new IllegalArgumentException("pool size " + maxSize + " for " + target);
        }
        this.target = target;
        this.maxSize = maxSize;
        this.free = maxSize;
    }

    public int maxSize() {
        return maxSize;
    }

    /**
     * Waits for a lease, at most {@code timeoutMillis}; the caller must {@link #release} it exactly once.
     *
     * @return true when the caller had to queue for it (a lease free at once returns false), so that only a real
     *         wait is reported as one: the time a free lease takes is the sampler's own, like any other
     * @throws PoolTimeoutException when every connection stayed busy that long
     */
    public boolean lease(int timeoutMillis) throws PoolTimeoutException, InterruptedIOException {
        Waiter w;
        lock.lock();
        try {
            if (free > 0 && waiters.isEmpty()) {
                free--;
                return false;
            }
            w = new Waiter();
            waiters.addLast(w);
        } finally {
            lock.unlock();
        }
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
        while (!w.granted) {
            long left = deadline - System.nanoTime();
            if (left <= 0 || Thread.currentThread().isInterrupted()) {
                if (giveUp(w)) {
                    break; // granted just now: keep the lease
                }
                if (Thread.currentThread().isInterrupted()) {
                    throw new InterruptedIOException("Sample interrupted (test stopped) while waiting for a pooled "
                            + "connection to " + target);
                }
                throw new PoolTimeoutException("connection pool full: all " + maxSize + " connections to " + target
                        + " stayed busy for the connect timeout (" + timeoutMillis + " ms); raise stampede.pool_size"
                        + " or the connect timeout");
            }
            LockSupport.parkNanos(this, left);
        }
        return true;
    }

    /** Marks {@code w} as gone unless a lease reached it first; true when it did (the caller holds a lease). */
    private boolean giveUp(Waiter w) {
        lock.lock();
        try {
            if (w.granted) {
                return true;
            }
            w.gaveUp = true;
            return false;
        } finally {
            lock.unlock();
        }
    }

    /**
     * With a lease: an idle connection, or null (then the leaseholder makes one). One the server closed while it was
     * idle is still returned: it reconnects when its next request goes out, which the sample shows as a Connect.
     */
    public C idle() {
        for (C c = idle.pollFirst(); c != null; c = idle.pollFirst()) {
            if (c.usable()) {
                return c;
            }
            c.close(); // made on an engine that has stopped since
        }
        return null;
    }

    /** Ends a lease, keeping {@code c} (when not null and still usable) for the next user. */
    public void release(C c) {
        if (c != null) {
            if (c.usable()) {
                idle.offerFirst(c);
            } else {
                c.close();
            }
        }
        Waiter next;
        lock.lock();
        try {
            next = waiters.pollFirst();
            while (next != null && next.gaveUp) {
                next = waiters.pollFirst();
            }
            if (next == null) {
                free++;
                return;
            }
            next.granted = true;
        } finally {
            lock.unlock();
        }
        LockSupport.unpark(next.thread);
    }

    /** Closes the idle connections (the engine closes the busy ones as it stops). */
    void close() {
        for (C c = idle.pollFirst(); c != null; c = idle.pollFirst()) {
            c.close();
        }
    }
}
