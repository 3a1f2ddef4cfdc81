/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine;

import org.junit.jupiter.api.Test;

import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The pool's leases alone (no connections): limit, first come first served, give-ups, interrupts, no leak. */
class ConnectionPoolTest {

    /** How many leases can be taken at once without waiting, all given back afterwards. */
    private static int freeLeases(ConnectionPool pool) throws Exception {
        int n = 0;
        try {
            while (n < pool.maxSize() + 1) {
                pool.lease(0);
                n++;
            }
        } catch (PoolTimeoutException full) {
            // the rest are busy
        }
        for (int i = 0; i < n; i++) {
            pool.release(null);
        }
        return n;
    }

    private static Thread waiting(ConnectionPool pool, int timeoutMillis, List<String> log, String name) {
        Thread t = new Thread(() -> {
            try {
                log.add(pool.lease(timeoutMillis) ? name : name + ":not queued");
                pool.release(null);
            } catch (Exception e) {
                log.add(name + ":" + e.getClass().getSimpleName());
            }
        });
        t.start();
        return t;
    }

    private static void awaitWaiting(Thread t) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (t.getState() != Thread.State.TIMED_WAITING && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertEquals(Thread.State.TIMED_WAITING, t.getState());
    }

    @Test
    void aReleasedLeaseGoesToTheOldestWaiterAndTheFullPoolTimesOutWithItsOwnKind() throws Exception {
        ConnectionPool pool = new ConnectionPool("h:1", 1);
        assertFalse(pool.lease(0), "a free lease is not a wait");
        PoolTimeoutException full = assertThrows(PoolTimeoutException.class, () -> pool.lease(20));
        assertTrue(full.getMessage().contains("stampede.pool_size"), full.getMessage());
        List<String> log = new CopyOnWriteArrayList<>();
        Thread first = waiting(pool, 10_000, log, "first");
        awaitWaiting(first);
        Thread second = waiting(pool, 10_000, log, "second");
        awaitWaiting(second);
        pool.release(null);
        first.join(5000);
        second.join(5000);
        assertEquals(List.of("first", "second"), log);
        assertEquals(1, freeLeases(pool));
    }

    @Test
    void waitersThatGaveUpAreSkippedAndDoNotKeepALease() throws Exception {
        ConnectionPool pool = new ConnectionPool("h:1", 2);
        pool.lease(0);
        pool.lease(0);
        List<String> log = new CopyOnWriteArrayList<>();
        List<Thread> quitters = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            quitters.add(waiting(pool, 30, log, "quitter"));
        }
        for (Thread t : quitters) {
            t.join(5000);
        }
        assertEquals(200, log.stream().filter(s -> s.equals("quitter:PoolTimeoutException")).count(), log.toString());
        Thread patient = waiting(pool, 10_000, log, "patient");
        awaitWaiting(patient);
        pool.release(null);
        patient.join(5000);
        assertTrue(log.contains("patient"), log.toString());
        pool.release(null);
        assertEquals(2, freeLeases(pool));
    }

    @Test
    void anInterruptedWaiterFailsWithoutTakingALease() throws Exception {
        ConnectionPool pool = new ConnectionPool("h:1", 1);
        pool.lease(0);
        List<String> log = new CopyOnWriteArrayList<>();
        Thread t = waiting(pool, 10_000, log, "waiter");
        awaitWaiting(t);
        t.interrupt();
        t.join(5000);
        assertEquals(List.of("waiter:" + InterruptedIOException.class.getSimpleName()), log);
        pool.release(null);
        assertEquals(1, freeLeases(pool));
    }

    @Test
    void underContentionNoMoreThanMaxSizeLeasesAreOutAndNoneIsLost() throws Exception {
        ConnectionPool pool = new ConnectionPool("h:1", 3);
        AtomicInteger out = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        AtomicInteger timeouts = new AtomicInteger();
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        CountDownLatch done = new CountDownLatch(32);
        for (int u = 0; u < 32; u++) {
            new Thread(() -> {
                try {
                    for (int i = 0; i < 500; i++) {
                        try {
                            pool.lease(ThreadLocalRandom.current().nextInt(0, 3));
                        } catch (PoolTimeoutException e) {
                            timeouts.incrementAndGet();
                            continue;
                        }
                        most.accumulateAndGet(out.incrementAndGet(), Math::max);
                        Thread.onSpinWait();
                        out.decrementAndGet();
                        pool.release(null);
                    }
                } catch (Throwable e) {
                    failures.add(e);
                } finally {
                    done.countDown();
                }
            }).start();
        }
        assertTrue(done.await(60, TimeUnit.SECONDS));
        assertEquals(List.of(), failures);
        assertTrue(most.get() <= 3 && most.get() >= 1, "at most 3 leases out at once, saw " + most.get());
        assertEquals(3, freeLeases(pool), "every lease came back (" + timeouts.get() + " timed out on the way)");
    }
}
