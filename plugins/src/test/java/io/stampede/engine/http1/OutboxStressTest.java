/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.http1;

import io.stampede.engine.CompletionQueue;
import io.stampede.engine.Outbox;
import io.netty.channel.DefaultEventLoop;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Exchanges armed on several JMeter threads at once reach their event loop through one {@link Outbox}: every one
 * must be run on the loop exactly once, even when an add races with the drain that clears the pending flag (a lost
 * drain leaves an exchange in the outbox for good, and this test times out). The connection is closed, so the loop
 * fails each exchange at once and hands it back through the completion queue: the whole round trip, no socket.
 */
class OutboxStressTest {
    private static final int PRODUCERS = 4;
    private static final int PER_PRODUCER = 16;
    private static final int ROUNDS = 3_000;

    @Test
    void everyArmedExchangeIsRunOnTheLoopOnceAndComesBack() throws Exception {
        DefaultEventLoop loop = new DefaultEventLoop();
        try {
            CompletionQueue queue = new CompletionQueue(Thread.currentThread());
            Outbox outbox = new Outbox(loop);
            Http1Connection connection = new Http1Connection(null, loop, outbox, null,
                    new InetSocketAddress("127.0.0.1", 9), null, 1000, PRODUCERS * PER_PRODUCER, null);
            connection.close();
            Http1Exchange[] all = connection.exchanges();
            AtomicReference<Throwable> failed = new AtomicReference<>();
            List<Thread> producers = new ArrayList<>();
            for (int p = 0; p < PRODUCERS; p++) {
                int first = p * PER_PRODUCER;
                Thread t = new Thread(() -> {
                    for (int r = 0; r < ROUNDS; r++) {
                        for (int i = first; i < first + PER_PRODUCER; i++) {
                            Http1Exchange e = all[i];
                            while (e.state() != Http1Exchange.HELD) {
                                Thread.onSpinWait(); // the consumer has not taken its last outcome yet
                            }
                            e.arm(queue, null, System.nanoTime(), 0, 1000);
                        }
                    }
                }, "arming-" + p);
                t.setDaemon(true);
                t.setUncaughtExceptionHandler((th, ex) -> failed.set(ex));
                producers.add(t);
            }
            producers.forEach(Thread::start);
            int[] arrived = new int[all.length];
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            for (int n = 0; n < all.length * ROUNDS; ) {
                assertNull(failed.get());
                assertTrue(System.nanoTime() < deadline, "only " + n + " exchanges came back within 60 s");
                Http1Exchange e = (Http1Exchange) queue.poll(TimeUnit.MILLISECONDS.toNanos(100));
                if (e == null) {
                    continue;
                }
                assertTrue(e.failed(), "the closed connection failed it on the loop");
                arrived[indexOf(all, e)]++;
                n++;
                e.take();
            }
            for (Thread t : producers) {
                t.join(10_000);
            }
            for (int i = 0; i < all.length; i++) {
                assertEquals(ROUNDS, arrived[i], "exchange " + i);
            }
            assertNull(queue.poll(), "no exchange came back twice");
        } finally {
            loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    private static int indexOf(Http1Exchange[] all, Http1Exchange e) {
        for (int i = 0; i < all.length; i++) {
            if (all[i] == e) {
                return i;
            }
        }
        throw new AssertionError("an exchange of another connection");
    }
}
