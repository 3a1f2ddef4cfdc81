/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.http1;

import io.stampede.engine.CompletionQueue;
import io.stampede.engine.Engine;
import io.stampede.engine.Outbox;
import io.stampede.engine.PreparedRequest;
import io.stampede.engine.tls.Tls;
import io.stampede.engine.WriteBatch;
import io.netty.channel.EventLoop;
import io.netty.channel.ManualIoEventLoop;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The connections one sampler clone keeps busy for its JMeter thread when it runs more than one connection per
 * thread, on a schedule (pacing, target rate) or pipelined. Every connection carries up to its pipelining depth of
 * requests at a time (its exchanges); the thread takes whichever exchange completes first, and puts the next
 * request on that exchange at its next scheduled time.
 *
 * <p>Who does the connections' I/O is the sampler's choice ({@code stampede.io_mode}): by default the owning thread itself, on an event loop of
 * its own that it drives while it waits in the sampler (as each wrk thread does), so a request costs no thread
 * hand-off; or the engine's shared event loops, which read responses even while the thread is elsewhere.
 * Only the owning JMeter thread calls it, except {@link #interrupt()}.
 */
public final class ConnectionGroup {
    /** How often the owner looks for responses past their timeout (timeouts are therefore this coarse). */
    private static final long TIMEOUT_SCAN_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    /**
     * With the thread's own loop, responses are read (and time-stamped) and batched requests written when the owner
     * runs the loop: it does so at least this often while it hands out results already read, so a response's time
     * is late, and a due request unwritten, by at most about this much.
     */
    private static final long POLL_INTERVAL_NANOS = TimeUnit.MICROSECONDS.toNanos(50);

    /** Time between two requests of one exchange (0: each goes as soon as the last completed). */
    private final long intervalNanos;
    private final CompletionQueue queue;
    private final Http1Connection[] connections;
    private final Http1Exchange[] slots;
    /** The loop the owner drives itself ({@link IoMode#THREAD}); null when the engine's loops do the I/O. */
    private final ManualIoEventLoop ownLoop;
    /** Requests due on open connections, written at the owner's next loop run (with its own loop only). */
    private final WriteBatch batch;
    private boolean started;
    private long nextScanNanos;
    private long lastPollNanos;
    private volatile boolean interrupted;

    /**
     * @param sources the source address of each connection (null: the kernel's choice); one connection each
     * @param depth requests on the wire at once per connection (pipelining depth)
     * @param intervalNanos time between two requests of one exchange; 0: each goes once the last completed
     * @param ownLoop whether the owner does the I/O itself, on a loop it drives, instead of the engine's loops
     */
    public ConnectionGroup(Engine engine, InetSocketAddress remote, InetSocketAddress[] sources, int depth,
                           long intervalNanos, boolean ownLoop, int connectTimeout, Tls tls) {
        this.intervalNanos = intervalNanos;
        this.connections = new Http1Connection[sources.length];
        this.slots = new Http1Exchange[connections.length * depth];
        this.ownLoop = ownLoop ? engine.newOwnedLoop() : null;
        // With its own loop the owner never sleeps on the queue (it waits in the loop), so nobody is unparked.
        this.queue = new CompletionQueue(ownLoop ? null : Thread.currentThread());
        this.batch = ownLoop ? new WriteBatch() : null;
        List<Outbox> outboxes = new ArrayList<>();
        for (int i = 0; i < connections.length; i++) {
            EventLoop loop = ownLoop ? this.ownLoop : engine.nextLoop();
            Outbox outbox = ownLoop ? null : outboxFor(loop, outboxes);
            connections[i] = new Http1Connection(engine, loop, outbox, batch, remote, sources[i], connectTimeout,
                    depth, tls);
            System.arraycopy(connections[i].exchanges(), 0, slots, i * depth, depth);
        }
    }

    /** One outbox per event loop for the group's connections on it. */
    private static Outbox outboxFor(EventLoop loop, List<Outbox> outboxes) {
        for (Outbox o : outboxes) {
            if (o.loop() == loop) {
                return o;
            }
        }
        Outbox o = new Outbox(loop);
        outboxes.add(o);
        return o;
    }

    /**
     * The next completed exchange (response or failure), taken: the caller reads it and then calls {@link #rearm}.
     * The first call arms every exchange, spread evenly over one interval.
     *
     * @return null when the sample was interrupted (stop test now)
     */
    public Http1Exchange next(PreparedRequest req, int responseBytesKept, int responseTimeout) {
        long now = System.nanoTime();
        if (!started) {
            started = true;
            long spread = intervalNanos / slots.length;
            for (int i = 0; i < slots.length; i++) {
                slots[i].arm(queue, req, now + i * spread, responseBytesKept, responseTimeout);
            }
            nextScanNanos = now + TIMEOUT_SCAN_NANOS;
        } else if (ownLoop != null && now - lastPollNanos >= POLL_INTERVAL_NANOS) {
            runOwnLoop(-1);
        }
        for (;;) {
            Http1Exchange c = (Http1Exchange) queue.poll();
            if (c != null) {
                return taken(c);
            }
            if (interrupted) {
                interrupted = false;
                return null;
            }
            now = System.nanoTime();
            if (now - nextScanNanos >= 0) {
                for (Http1Exchange s : slots) {
                    s.expireIfOverdue(now);
                }
                nextScanNanos = now + TIMEOUT_SCAN_NANOS;
                continue;
            }
            if (ownLoop != null) {
                runOwnLoop(nextScanNanos - now);
            } else {
                c = (Http1Exchange) queue.poll(nextScanNanos - now);
                if (c != null) {
                    return taken(c);
                }
            }
        }
    }

    private static Http1Exchange taken(Http1Exchange c) {
        c.take();
        return c;
    }

    /**
     * Runs the owner's loop: writes the batched requests, reads what arrived (completions go to the queue) and sends
     * what is due, blocking up to {@code waitNanos} when nothing is ready (-1: not at all).
     */
    private void runOwnLoop(long waitNanos) {
        batch.flush();
        ownLoop.run(waitNanos);
        lastPollNanos = System.nanoTime();
    }

    /** Puts the next request on {@code c}: at once without a schedule, else one interval after its last one. */
    public void rearm(Http1Exchange c, PreparedRequest req, int responseBytesKept, int responseTimeout) {
        long at = intervalNanos == 0 ? System.nanoTime() : c.intendedNanos() + intervalNanos;
        c.arm(queue, req, at, responseBytesKept, responseTimeout);
    }

    /** Any thread: the owner's wait ends at once with no result. */
    public void interrupt() {
        interrupted = true;
        if (ownLoop != null) {
            ownLoop.wakeup();
        } else {
            queue.wake();
        }
    }

    /** Owner: closes every connection; its own loop, if any, runs until they are closed and then stops. */
    public void close() {
        for (Http1Connection c : connections) {
            c.close();
        }
        if (ownLoop != null) {
            Engine.closeOwnedLoop(ownLoop, "connections of a connection group");
        }
    }
}
