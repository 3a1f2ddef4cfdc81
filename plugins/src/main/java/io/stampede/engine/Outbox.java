/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine;

import io.netty.channel.EventLoop;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Exchanges due now, on their way from JMeter threads to one event loop. Handing each over with its own
 * {@code execute} would wake the loop (an eventfd write) once per request; here a request only schedules a drain
 * when none is pending, so while the loop is busy, any number of requests cost no wake-up at all. Each node is a
 * {@link Runnable} run on the loop; the optional {@code afterDrain} runs once after a drain (to write the batch).
 */
public final class Outbox implements Runnable {
    private final EventLoop loop;
    private final Runnable afterDrain;
    /** Consumed by the loop only; never sleeps, so it is built without a consumer thread to wake. */
    private final CompletionQueue due = new CompletionQueue(null);
    private final AtomicBoolean drainPending = new AtomicBoolean();

    public Outbox(EventLoop loop) {
        this(loop, null);
    }

    public Outbox(EventLoop loop, Runnable afterDrain) {
        this.loop = loop;
        this.afterDrain = afterDrain;
    }

    public EventLoop loop() {
        return loop;
    }

    /** Any thread: runs {@code e} soon, on the loop. */
    public void add(CompletionQueue.Node e) {
        put(e);
        dispatch();
    }

    /** Any thread: {@code e} waits for the next {@link #dispatch}, this thread's or another's. */
    public void put(CompletionQueue.Node e) {
        due.add(e);
    }

    /**
     * Any thread: schedules a drain of what was put, unless one is pending; false if the loop stopped (the engine
     * was shut down), and what waits here then stays here.
     */
    public boolean dispatch() {
        // Read after the (volatile) link: if the drain already cleared the flag, it may have missed e, so schedule.
        if (!drainPending.get() && drainPending.compareAndSet(false, true)) {
            try {
                loop.execute(this);
            } catch (RejectedExecutionException stopped) {
                drainPending.set(false);
                return false;
            }
        }
        return true;
    }

    /** The drain, on the loop. */
    @Override
    public void run() {
        drainPending.set(false);
        for (CompletionQueue.Node n = due.poll(); n != null; n = due.poll()) {
            ((Runnable) n).run();
        }
        if (afterDrain != null) {
            afterDrain.run();
        }
    }

    /** After {@link #dispatch} returned false (the loop stopped): hands what waits here to {@code to}. */
    public void takeAll(java.util.function.Consumer<CompletionQueue.Node> to) {
        for (CompletionQueue.Node n = due.poll(); n != null; n = due.poll()) {
            to.accept(n);
        }
    }
}
