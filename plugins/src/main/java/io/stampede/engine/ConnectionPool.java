/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine;

import java.io.InterruptedIOException;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * The keep-alive connections the users of one engine share to one target (host, port, TLS), at most
 * {@code maxSize} of them. A user takes a lease for one request, with it an idle connection or the right to open
 * one, and gives both back after the response. A lease is what is limited, so no more than {@code maxSize}
 * connections are busy and a new one is opened only when none is idle: the pool never holds more than
 * {@code maxSize}. Leases are handed out first come, first served (a fair semaphore), so under a full pool no
 * user waits much longer than the others. The most recently used connection is reused first, so surplus ones go
 * idle and the server's keep-alive timeout can close them.
 */
public final class ConnectionPool {
    private final String target;
    private final int maxSize;
    private final Semaphore leases;
    private final ConcurrentLinkedDeque<Http1Connection> idle = new ConcurrentLinkedDeque<>();

    ConnectionPool(String target, int maxSize) {
        if (maxSize < 1) {
            throw new IllegalArgumentException("pool size " + maxSize + " for " + target);
        }
        this.target = target;
        this.maxSize = maxSize;
        this.leases = new Semaphore(maxSize, true);
    }

    public int maxSize() {
        return maxSize;
    }

    /**
     * Waits for a lease, at most {@code timeoutMillis}; the caller must {@link #release} it exactly once.
     *
     * @throws PoolTimeoutException when every connection stayed busy that long
     */
    public void lease(int timeoutMillis) throws PoolTimeoutException, InterruptedIOException {
        if (leases.tryAcquire()) {
            return;
        }
        try {
            if (!leases.tryAcquire(timeoutMillis, TimeUnit.MILLISECONDS)) {
                throw new PoolTimeoutException("connection pool full: all " + maxSize + " connections to " + target
                        + " stayed busy for the connect timeout (" + timeoutMillis + " ms); raise stampede.pool_size"
                        + " or the connect timeout");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("Sample interrupted (test stopped) while waiting for a pooled "
                    + "connection to " + target);
        }
    }

    /**
     * With a lease: an idle connection, or null (then the leaseholder makes one). One the server closed while it was
     * idle is still returned: it reconnects when its next request goes out, which the sample shows as a Connect.
     */
    public Http1Connection idle() {
        for (Http1Connection c = idle.pollFirst(); c != null; c = idle.pollFirst()) {
            if (c.usable()) {
                return c;
            }
            c.close(); // made on an engine that has stopped since
        }
        return null;
    }

    /** Ends a lease, keeping {@code c} (when not null and still usable) for the next user. */
    public void release(Http1Connection c) {
        if (c != null) {
            if (c.usable()) {
                idle.offerFirst(c);
            } else {
                c.close();
            }
        }
        leases.release();
    }

    /** Closes the idle connections (the engine closes the busy ones as it stops). */
    void close() {
        for (Http1Connection c = idle.pollFirst(); c != null; c = idle.pollFirst()) {
            c.close();
        }
    }
}
