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
 * when none is pending, so while the loop is busy, any number of requests cost no wake-up at all.
 */
public final class Outbox implements Runnable {
    private final EventLoop loop;
    /** Consumed by the loop only; never sleeps, so it is built without a consumer thread to wake. */
    private final CompletionQueue due = new CompletionQueue(null);
    private final AtomicBoolean drainPending = new AtomicBoolean();

    public Outbox(EventLoop loop) {
        this.loop = loop;
    }

    public EventLoop loop() {
        return loop;
    }

    /** Any thread: sends {@code e} soon, on the loop. */
    void add(Exchange e) {
        due.offer(e);
        // Read after the (volatile) link: if the drain already cleared the flag, it may have missed e, so schedule.
        if (!drainPending.get() && drainPending.compareAndSet(false, true)) {
            try {
                loop.execute(this);
            } catch (RejectedExecutionException stopped) {
                // The engine stopped (test end): e stays here, its owner's thread is ending and closes its group.
            }
        }
    }

    /** The drain, on the loop. */
    @Override
    public void run() {
        drainPending.set(false);
        for (CompletionQueue.Node n = due.poll(); n != null; n = due.poll()) {
            ((Exchange) n).run();
        }
    }
}
