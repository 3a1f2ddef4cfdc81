/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in compliance with
 * the License. You may obtain a copy of the License at http://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sampler;

import io.stampede.engine.AsyncConnection;
import io.stampede.engine.CompletionQueue;
import io.stampede.engine.Engine;
import io.stampede.engine.Exchange;
import io.stampede.engine.Outbox;
import io.netty.channel.EventLoop;
import java.util.ArrayList;
import java.util.List;
import io.stampede.engine.PreparedRequest;
import io.stampede.engine.Tls;
import java.util.Objects;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * The connections one sampler clone keeps busy for its JMeter thread when it runs more than one connection per
 * thread, on a schedule (pacing, target rate) or pipelined. Every connection carries up to its pipelining depth of
 * requests at a time (its exchanges); the thread takes whichever exchange completes first, and puts the next
 * request on that exchange at its next scheduled time.
 * Only the owning JMeter thread calls it, except {@link #interrupt()}.
 */
final class ConnectionGroup {
    /** How often the owner looks for responses past their timeout (timeouts are therefore this coarse). */
    private static final long TIMEOUT_SCAN_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private final ScheduleSettings settings;
    private final InetSocketAddress remote;
    private final Tls tls;
    private final CompletionQueue queue;
    private final AsyncConnection[] connections;
    private final Exchange[] slots;
    private final long epochOffsetNanos;
    private boolean started;
    private long nextScanNanos;
    private volatile boolean interrupted;

    /**
     * @param firstSource which source address the first connection takes (the JMeter thread number spreads threads
     *                    over the addresses)
     */
    ConnectionGroup(ScheduleSettings settings, InetSocketAddress remote, int firstSource, int connectTimeout,
                    Tls tls) {
        this.settings = settings;
        this.remote = remote;
        this.tls = tls;
        this.queue = new CompletionQueue(Thread.currentThread());
        this.connections = new AsyncConnection[settings.connections()];
        int depth = settings.pipelineDepth();
        this.slots = new Exchange[connections.length * depth];
        Engine engine = Engine.get();
        List<Outbox> outboxes = new ArrayList<>();
        for (int i = 0; i < connections.length; i++) {
            connections[i] = new AsyncConnection(engine, outboxFor(engine.nextLoop(), outboxes), queue, remote,
                    settings.source(firstSource + i), connectTimeout, depth, tls);
            System.arraycopy(connections[i].exchanges(), 0, slots, i * depth, depth);
        }
        this.epochOffsetNanos = System.currentTimeMillis() * 1_000_000L - System.nanoTime();
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

    boolean targets(String host, int port, Tls t) {
        return remote.getPort() == port && host.equals(remote.getHostString()) && Objects.equals(tls, t);
    }

    /**
     * The next completed exchange (response or failure), taken: the caller reads it and then calls {@link #rearm}.
     * The first call arms every exchange, spread evenly over one interval.
     *
     * @return null when the sample was interrupted (stop test now)
     */
    Exchange next(PreparedRequest req, int keptBytes, int responseTimeout) {
        long now = System.nanoTime();
        if (!started) {
            started = true;
            long spread = settings.intervalNanos() / slots.length;
            for (int i = 0; i < slots.length; i++) {
                slots[i].arm(req, now + i * spread, keptBytes, responseTimeout);
            }
            nextScanNanos = now + TIMEOUT_SCAN_NANOS;
        }
        for (;;) {
            Exchange c = (Exchange) queue.poll();
            if (c != null) {
                c.take();
                return c;
            }
            if (interrupted) {
                interrupted = false;
                return null;
            }
            now = System.nanoTime();
            if (now - nextScanNanos >= 0) {
                for (Exchange s : slots) {
                    s.expireIfOverdue(now);
                }
                nextScanNanos = now + TIMEOUT_SCAN_NANOS;
                continue;
            }
            c = (Exchange) queue.poll(nextScanNanos - now);
            if (c != null) {
                c.take();
                return c;
            }
        }
    }

    /** Puts the next request on {@code c}: at once without a schedule, else one interval after its last one. */
    void rearm(Exchange c, PreparedRequest req, int keptBytes, int responseTimeout) {
        long interval = settings.intervalNanos();
        long at = interval == 0 ? System.nanoTime() : c.intendedNanos() + interval;
        c.arm(req, at, keptBytes, responseTimeout);
    }

    /** Milliseconds since the epoch of a System.nanoTime() instant, for the result's time stamp. */
    long epochMillis(long nanos) {
        return (nanos + epochOffsetNanos) / 1_000_000L;
    }

    /** Any thread: the owner's wait ends at once with no result. */
    void interrupt() {
        interrupted = true;
        queue.wake();
    }

    void close() {
        for (AsyncConnection c : connections) {
            c.close();
        }
    }
}
