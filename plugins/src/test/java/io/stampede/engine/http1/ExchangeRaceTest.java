/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.http1;

import io.stampede.engine.CompletionQueue;
import io.stampede.engine.Exchange;
import io.stampede.engine.Failures;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The races an exchange decides with its state field, run many times on two threads started together: the event
 * loop completing a response against the owner's timeout or interrupt, the loop's retry against the owner's
 * timeout, and the loop's send against the owner's connect timeout. Whatever the interleaving, exactly one side wins
 * and exactly one outcome, the winner's, is delivered.
 */
class ExchangeRaceTest {
    private static final int ROUNDS = 20_000;

    /** Runs {@code a} and {@code b} on two threads, released together, {@code ROUNDS} times. */
    private static void race(Runnable setUp, Runnable a, Runnable b, Runnable check) throws Exception {
        AtomicInteger go = new AtomicInteger();
        AtomicInteger done = new AtomicInteger();
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread other = new Thread(() -> {
            for (int r = 1; r <= ROUNDS; r++) {
                while (go.get() < r) {
                    Thread.onSpinWait();
                }
                b.run();
                done.incrementAndGet();
            }
        }, "racer");
        other.setUncaughtExceptionHandler((t, e) -> failed.set(e));
        other.setDaemon(true);
        other.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        for (int r = 1; r <= ROUNDS; r++) {
            setUp.run();
            go.set(r);
            a.run();
            while (done.get() < r) {
                assertNull(failed.get());
                assertTrue(System.nanoTime() < deadline, "round " + r + " did not finish");
                Thread.onSpinWait();
            }
            check.run();
        }
        assertNull(failed.get());
    }

    private static Http1Exchange exchange(CompletionQueue queue) {
        // No engine or loop is touched by these transitions; the connection only owns the exchange.
        Http1Exchange e = new Http1Connection(null, null, null, null, new InetSocketAddress("127.0.0.1", 9), null, 1000, 1,
                null).exchanges()[0];
        try {
            // as arm() sets it; these races start from a sent exchange
            MethodHandles.privateLookupIn(Exchange.class, MethodHandles.lookup())
                    .findVarHandle(Exchange.class, "queue", CompletionQueue.class).set(e, queue);
        } catch (ReflectiveOperationException x) {
            throw new IllegalStateException(x);
        }
        return e;
    }

    /**
     * Takes the last outcome and puts the exchange on the wire again as the loop does, without the dispatch arm()
     * makes (no loop here): the state is set to ARMED directly, then sent.
     */
    private static void sendAgain(Http1Exchange e, long sentNanos) {
        armAgain(e);
        assertTrue(e.sent(sentNanos));
    }

    /** Takes the last outcome and arms the exchange again as arm() does, without its dispatch. */
    private static void armAgain(Http1Exchange e) {
        e.take();
        try {
            VarHandle state = MethodHandles.privateLookupIn(Exchange.class, MethodHandles.lookup())
                    .findVarHandle(Exchange.class, "state", int.class);
            state.setVolatile(e, Http1Exchange.ARMED);
        } catch (ReflectiveOperationException x) {
            throw new IllegalStateException(x);
        }
    }

    @Test
    void responseAgainstTimeoutOrInterruptDeliversOneOutcome() throws Exception {
        CompletionQueue queue = new CompletionQueue(null);
        Http1Exchange e = exchange(queue);
        IOException interrupted = Failures.interrupted();
        AtomicInteger ownerWins = new AtomicInteger();
        AtomicInteger loopWins = new AtomicInteger();
        AtomicInteger round = new AtomicInteger();
        boolean[] ownerWon = new boolean[1];
        race(() -> {
            sendAgain(e, System.nanoTime() - TimeUnit.SECONDS.toNanos(60)); // its deadline has passed
        }, () -> e.succeed(System.nanoTime()), () -> ownerWon[0] = round.incrementAndGet() % 2 == 0
                ? e.expireIfOverdue(System.nanoTime()) : e.fail(interrupted), () -> {
            CompletionQueue.Node n = queue.poll();
            assertSame(e, n, "one outcome is delivered");
            assertNull(queue.poll(), "and only one");
            assertEquals(ownerWon[0], e.failed(), "the outcome is the winner's");
            if (ownerWon[0]) {
                ownerWins.incrementAndGet();
            } else {
                loopWins.incrementAndGet();
            }
        });
        assertEquals(ROUNDS, ownerWins.get() + loopWins.get());
        assertNotEquals(0, loopWins.get(), "the loop won sometimes");
    }

    @Test
    void retryAgainstTimeoutEitherResendsOrFailsNeverBoth() throws Exception {
        CompletionQueue queue = new CompletionQueue(null);
        Http1Exchange e = exchange(queue);
        boolean[] retried = new boolean[1];
        boolean[] expired = new boolean[1];
        AtomicInteger retries = new AtomicInteger();
        AtomicInteger expiries = new AtomicInteger();
        race(() -> {
            sendAgain(e, System.nanoTime() - TimeUnit.SECONDS.toNanos(60));
        }, () -> retried[0] = e.unsend(), () -> expired[0] = e.expireIfOverdue(System.nanoTime()), () -> {
            assertTrue(retried[0] ^ expired[0], "exactly one of retry and timeout wins");
            if (retried[0]) {
                retries.incrementAndGet();
                assertNull(queue.poll(), "a retried exchange has no outcome yet");
                assertEquals(Http1Exchange.ARMED, e.state());
                e.fail(Failures.threadFinished()); // end the round with an outcome, as the next connect would
            } else {
                expiries.incrementAndGet();
            }
            assertSame(e, queue.poll());
            assertNull(queue.poll());
            assertTrue(e.failed());
        });
        assertEquals(ROUNDS, retries.get() + expiries.get());
    }

    @Test
    void sendAgainstTheOwnersConnectTimeoutNeverLeavesAFailedExchangeOnTheWire() throws Exception {
        CompletionQueue queue = new CompletionQueue(null);
        Http1Exchange e = exchange(queue);
        e.fail(Failures.threadFinished()); // an outcome for the first armAgain to take
        queue.poll();
        AtomicInteger sentFirst = new AtomicInteger();
        boolean[] sent = new boolean[1];
        race(() -> armAgain(e), () -> sent[0] = e.sent(System.nanoTime()),
                () -> e.fail(Failures.connectTimeout(new InetSocketAddress("127.0.0.1", 9))), () -> {
                    assertSame(e, queue.poll(), "the owner's failure is delivered");
                    assertNull(queue.poll());
                    assertTrue(e.failed());
                    // A send that lost must not have written SENT over the failure: the loop would then treat
                    // the failed exchange as waiting for a response.
                    assertNotEquals(Http1Exchange.SENT, e.state());
                    if (sent[0]) {
                        sentFirst.incrementAndGet();
                    }
                });
        assertNotEquals(0, sentFirst.get(), "the send won the race sometimes (then the failure moved it on)");
    }
}
