/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.injector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.DefaultEventLoopGroup;
import io.netty.channel.EventLoop;
import io.stampede.engine.Engine;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class LoopLagProbeTest {

    @AfterEach
    void stopEngine() {
        Engine.shutdown();
    }

    /** Ticks every 20 ms for the given time. */
    private static void tickFor(LoopLagProbe probe, long millis) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (System.nanoTime() < end) {
            probe.tick();
            Thread.sleep(20);
        }
    }

    /** Blocks the loop for the given time; returns once the blocking task runs. */
    private static void block(EventLoop loop, long millis) throws InterruptedException {
        CountDownLatch started = new CountDownLatch(1);
        loop.execute(() -> {
            started.countDown();
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertTrue(started.await(5, TimeUnit.SECONDS));
    }

    @Test
    void aLoopBlockedFor600MsShowsUpWhileItIsBlockedAndIdleLoopsDoNot() throws Exception {
        DefaultEventLoopGroup group = new DefaultEventLoopGroup(2);
        try {
            LoopLagProbe probe = new LoopLagProbe(group::forEach);
            tickFor(probe, 300);
            long idle = probe.takeMaxNanos();
            assertTrue(idle >= 0 && idle < TimeUnit.MILLISECONDS.toNanos(200), "idle loops: " + idle / 1e6 + " ms");

            block(group.next(), 600);
            tickFor(probe, 400); // still blocked at the end of this period
            long during = probe.takeMaxNanos();
            assertTrue(during >= TimeUnit.MILLISECONDS.toNanos(300), "counted while blocked: " + during / 1e6 + " ms");
            tickFor(probe, 500);
            long after = probe.takeMaxNanos();
            assertTrue(after >= TimeUnit.MILLISECONDS.toNanos(500), "the whole wait once it ran: " + after / 1e6);
            tickFor(probe, 300);
            long again = probe.takeMaxNanos();
            assertTrue(again < TimeUnit.MILLISECONDS.toNanos(200), "free again: " + again / 1e6 + " ms");
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
        }
    }

    @Test
    void theEnginesOwnLoopsAreProbedAndNoEngineGivesNoFigure() throws Exception {
        LoopLagProbe probe = new LoopLagProbe(Engine::forEachLoop);
        Engine.shutdown();
        probe.tick();
        assertEquals(-1, probe.takeMaxNanos(), "no engine runs: no figure, and none is started");

        block(Engine.get().nextLoop(), 400);
        tickFor(probe, 600);
        long lag = probe.takeMaxNanos();
        assertTrue(lag >= TimeUnit.MILLISECONDS.toNanos(300), "a blocked engine loop: " + lag / 1e6 + " ms");

        Engine.shutdown();
        tickFor(probe, 100);
        assertEquals(-1, probe.takeMaxNanos(), "after the engine stopped");
    }
}
