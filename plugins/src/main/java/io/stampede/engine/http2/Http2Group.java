/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.http2;

import io.stampede.engine.CompletionQueue;
import io.stampede.engine.Engine;
import io.stampede.engine.tls.Tls;
import io.netty.channel.EventLoop;
import io.netty.channel.ManualIoEventLoop;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * A JMeter thread's HTTP/2 connections: {@code connections} connections of {@code streams} streams each, so that
 * many requests of one thread are in flight at once, as h2load's {@code -c} and {@code -m}. Each sample is the next
 * stream to complete; every slot whose outcome was taken is sent again at the next sample, so with one connection
 * of one stream a sample is exactly one request, sent when the sample starts. The thread owns the response
 * timeouts: an overdue stream is reset, the others go on.
 *
 * <p>The connections' I/O runs either on one of the engine's event loops, which hands each read's completed streams
 * to the thread, or on an event loop the thread owns and drives while it waits here (as h2load's and wrk's threads
 * do): then a batch of streams costs no thread wake-up either way, but responses are read only while the thread is
 * in its sampler, and re-armed streams are written in batches ({@link #held}).
 */
public final class Http2Group {
    /**
     * With the thread's own loop, while the thread hands out completions already read, it still reads (without
     * waiting) at least this often, so a response's time is late by at most about this much ...
     */
    private static final long POLL_INTERVAL_NANOS = TimeUnit.MICROSECONDS.toNanos(50);
    /**
     * ... and writes the streams armed meanwhile at least this often, or sooner once half of its streams wait to be
     * written: each connection's re-armed streams then reach the server together, as h2load writes a read's worth at
     * once. Writing every 50 us sent a stream or two per connection per write (h2c 10x20, same call, three rounds:
     * 21.9 against 23.8 us of our CPU per request, +7 % req/s); writing whenever nothing was left to hand out still
     * sent about 3 per write, which cost more CPU per request than holding them (see {@link #held}). A stream's time
     * starts when it is written.
     */
    private static final long WRITE_INTERVAL_NANOS = TimeUnit.MICROSECONDS.toNanos(500);

    private final Http2Options options;
    private final Http2Connection[] connections;
    private final Http2Exchange[] slots;
    private final CompletionQueue queue;
    /** The loop the owner drives itself; null when an engine loop does the I/O. */
    private final ManualIoEventLoop ownLoop;
    private long lastRunNanos;
    private long lastWriteNanos;
    /**
     * The slot taken by the last call, armed again by the next; null before the first call, which arms them all.
     * Only a taken slot is idle after that, so a sample arms one slot without scanning the others.
     */
    private Http2Exchange taken;
    /**
     * No slot's response deadline is before this, so waiting until then needs no look at the slots: a scan sets it to
     * the earliest deadline it saw, and an arm can only lower it (a slot's deadline is its send plus its timeout, and
     * the send follows the arm). Slots complete mostly in the order they were sent, so one scan lasts many samples.
     */
    private long scanAtNanos;
    private final long writeIntervalNanos;
    /**
     * On the thread's own loop: streams re-armed since the last write, waiting in their connections' outboxes. While
     * fewer than half of the streams wait and the write interval has not passed, the thread waits for responses
     * instead of writing them: with the server at least half busy nothing runs dry, and the writes (each a system
     * call that on loopback also runs the server's side of TCP) carry batches. On h2 1x100 against nginx this took
     * our writes from 0.28 to 0.02 per request and our CPU per request down by 0.4-1.0 us (it/bench/RESULTS.md).
     */
    private int held;
    private long batchesWritten;
    private boolean started;
    private volatile boolean interrupted;

    /**
     * @param tls null for h2c; else h2 over TLS with ALPN
     * @param local source address of the connections, null for the kernel's choice
     * @param ownLoop whether the calling thread does the I/O itself, on a loop of its own, instead of an engine loop
     */
    public Http2Group(Engine engine, InetSocketAddress remote, InetSocketAddress local, Tls tls,
                      Http2Options options, int connections, int streams, int connectTimeoutMillis,
                      boolean ownLoop) {
        this(engine, remote, local, tls, options, connections, streams, connectTimeoutMillis, ownLoop,
                WRITE_INTERVAL_NANOS);
    }

    /** With another write interval than the product's: tests that must not depend on the machine's speed. */
    Http2Group(Engine engine, InetSocketAddress remote, InetSocketAddress local, Tls tls, Http2Options options,
               int connections, int streams, int connectTimeoutMillis, boolean ownLoop, long writeIntervalNanos) {
        this.writeIntervalNanos = writeIntervalNanos;
        this.options = options;
        this.ownLoop = ownLoop ? engine.newOwnedLoop() : null;
        // With its own loop the owner never sleeps on the queue (it waits in the loop), so nobody unparks it.
        queue = new CompletionQueue(ownLoop ? null : Thread.currentThread());
        this.connections = new Http2Connection[connections];
        slots = new Http2Exchange[connections * streams];
        // All of a thread's connections on one loop, as h2load's and Gatling's threads own theirs: the thread's armed
        // streams go to one loop, and one read pass there completes streams of this thread only, so a batch costs
        // one wake-up each way. Spread round-robin, two threads' connections shared both loops and woke both threads.
        EventLoop loop = ownLoop ? this.ownLoop : engine.nextLoop();
        for (int i = 0; i < connections; i++) {
            Http2Connection c = new Http2Connection(engine, loop, queue, remote, local,
                    connectTimeoutMillis, streams, tls, options);
            this.connections[i] = c;
            System.arraycopy(c.exchanges(), 0, slots, i * streams, streams);
        }
    }

    /** What its connections were opened with. */
    public Http2Options options() {
        return options;
    }

    /** False once a connection's event loop stopped (the engine was shut down): make a new group. */
    public boolean usable() {
        return connections[0].usable();
    }

    /**
     * Sends {@code request} on every idle slot, then waits for the next outcome; it is taken (read it before the next
     * call). Null when the sample was interrupted (stop test now).
     */
    public Http2Exchange next(Http2Request request, int responseBytesKept, int responseTimeoutMillis) {
        interrupted = false;
        long timeout = TimeUnit.MILLISECONDS.toNanos(responseTimeoutMillis);
        long now;
        if (!started) {
            started = true;
            for (Http2Exchange e : slots) {
                e.arm(request, responseBytesKept, responseTimeoutMillis);
            }
            now = System.nanoTime();
            scanAtNanos = now + timeout;
        } else if (taken != null) {
            if (ownLoop != null) {
                taken.armHeld(request, responseBytesKept, responseTimeoutMillis);
                held++;
            } else {
                taken.arm(request, responseBytesKept, responseTimeoutMillis);
            }
            now = taken.intendedNanos(); // the arm's own clock reading: no second one per sample
            taken = null;
            if (now + timeout - scanAtNanos < 0) {
                scanAtNanos = now + timeout;
            }
        } else {
            now = System.nanoTime();
        }
        if (ownLoop != null) {
            if (now - lastWriteNanos >= writeIntervalNanos) {
                runOwnLoop(-1); // sends what was armed and reads what arrived, without waiting
            } else if (now - lastRunNanos >= POLL_INTERVAL_NANOS) {
                ownLoop.runNow(-1); // I/O only: reads what arrived; the armed streams wait in the loop's tasks
                lastRunNanos = System.nanoTime();
            }
        }
        CompletionQueue.Node n = queue.poll();
        while (n == null) {
            if (interrupted || Thread.currentThread().isInterrupted()) {
                return null;
            }
            now = System.nanoTime();
            if (now - scanAtNanos >= 0) {
                scanAtNanos = expireOverdue(now, now + timeout);
            }
            long wait = Math.max(1, scanAtNanos - now);
            if (ownLoop != null) {
                if (held > 0 && held < slots.length / 2 && now - lastWriteNanos < writeIntervalNanos) {
                    // I/O only: nothing was handed to the loop, so it sleeps until a response or the write is due.
                    ownLoop.run(Math.max(1, Math.min(wait, lastWriteNanos + writeIntervalNanos - now)), -1);
                    lastRunNanos = System.nanoTime();
                } else {
                    runOwnLoop(wait);
                }
                n = queue.poll();
            } else {
                n = queue.poll(wait);
            }
        }
        Http2Exchange e = (Http2Exchange) n;
        e.take();
        taken = e;
        return e;
    }

    /**
     * Owner: fails every slot whose response deadline passed; returns the earliest deadline still ahead, or
     * {@code latest} if none is before it (slots not sent yet get theirs after {@code now}).
     */
    private long expireOverdue(long now, long latest) {
        long earliest = latest;
        for (Http2Exchange e : slots) {
            long d = e.deadlineNanos();
            if (d != 0 && !e.expireIfOverdue(now) && d - earliest < 0) {
                earliest = d;
            }
        }
        return earliest;
    }

    /** Owner: hands the held streams to their connections, to be written by the next run of the loop's tasks. */
    private void releaseHeld() {
        if (held > 0) {
            held = 0;
            batchesWritten++;
            for (Http2Connection c : connections) {
                c.release();
            }
        }
    }

    /** How many batches of held streams the owner has handed to its connections (tests). */
    long batchesWritten() {
        return batchesWritten;
    }

    /** Any thread (stop test now): the sample waiting in {@link #next} returns at once. */
    public void interrupt() {
        interrupted = true;
        if (ownLoop != null) {
            ownLoop.wakeup();
        } else {
            queue.wake();
        }
    }

    /**
     * Owner: writes the held streams and runs its own loop's I/O and tasks, waiting up to {@code waitNanos} when nothing
     * is ready (-1: no wait). Every such run is a write, so nothing held waits past it.
     */
    private void runOwnLoop(long waitNanos) {
        releaseHeld();
        ownLoop.run(waitNanos);
        lastRunNanos = System.nanoTime();
        lastWriteNanos = lastRunNanos;
    }

    /** Owner: closes every connection; what is in flight fails. An own loop runs until they closed, then stops. */
    public void close() {
        for (Http2Connection c : connections) {
            c.close();
        }
        if (ownLoop != null) {
            Engine.closeOwnedLoop(ownLoop, "HTTP/2 connections");
        }
    }
}
