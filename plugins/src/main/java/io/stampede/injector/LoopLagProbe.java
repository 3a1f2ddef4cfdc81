/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.injector;

import io.netty.util.concurrent.EventExecutor;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The event loops' lag: at every tick, a task is queued on each loop, and the time from queueing to running is
 * that loop's lag (what a response or a request written from a JMeter thread waits before the loop gets to it).
 * A loop still busy with the previous probe at the next tick counts with the time it has waited so far, so a loop
 * blocked for seconds shows up while it is blocked, not only once it is free again. One probe per loop is in
 * flight at a time: a stuck loop does not pile them up.
 */
final class LoopLagProbe {
    /** How often a probe is queued on each loop. */
    static final long TICK_MILLIS = 100;

    private final Consumer<Consumer<EventExecutor>> loops;
    private final Map<EventExecutor, Long> queuedAt = new ConcurrentHashMap<>();
    /** Longest lag since the last {@link #takeMaxNanos()}; -1 while no loop was seen (no engine runs). */
    private final AtomicLong maxNanos = new AtomicLong(-1);

    /** {@code loops} hands every event loop to its argument, e.g. {@code io.stampede.engine.Engine::forEachLoop}. */
    LoopLagProbe(Consumer<Consumer<EventExecutor>> loops) {
        this.loops = loops;
    }

    /** Queues a probe on every loop that has none waiting, and counts the wait of those that do. */
    void tick() {
        long now = System.nanoTime();
        loops.accept(loop -> {
            maxNanos.accumulateAndGet(0, Math::max); // a loop exists: this period has a figure
            Long since = queuedAt.putIfAbsent(loop, now);
            if (since != null) {
                record(now - since);
                return;
            }
            try {
                loop.execute(() -> {
                    Long t = queuedAt.remove(loop);
                    if (t != null) {
                        record(System.nanoTime() - t);
                    }
                });
            } catch (RejectedExecutionException shuttingDown) {
                queuedAt.remove(loop);
            }
        });
        // loops of an engine that stopped never run their probe: forget them
        queuedAt.keySet().removeIf(EventExecutor::isShuttingDown);
    }

    private void record(long nanos) {
        maxNanos.accumulateAndGet(nanos, Math::max);
    }

    /** The longest lag since the last call, in ns, then starts over; -1 when no loop ran in the period. */
    long takeMaxNanos() {
        return maxNanos.getAndSet(-1);
    }

    /** Ticks every {@link #TICK_MILLIS} ms, forever (a daemon thread's body). */
    void run() {
        while (true) {
            tick();
            java.util.concurrent.locks.LockSupport.parkNanos(TICK_MILLIS * 1_000_000);
        }
    }
}
