/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Completed exchanges waiting for their JMeter thread: many event loops offer, one JMeter thread polls. The queue
 * is intrusive (the exchange is the node; it is in the queue at most once at a time), so a completion allocates
 * nothing, and the consumer is only unparked when it really sleeps. Vyukov's non-blocking MPSC queue with a stub node.
 */
public final class CompletionQueue {
    /** A queue element; a node is in at most one queue at a time. */
    public abstract static class Node {
        volatile Node next;
    }

    private static final VarHandle TAIL;
    private static final VarHandle NEXT;

    static {
        try {
            TAIL = MethodHandles.lookup().findVarHandle(CompletionQueue.class, "tail", Node.class);
            NEXT = MethodHandles.lookup().findVarHandle(Node.class, "next", Node.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Node stub = new Node() { };
    private volatile Node tail = stub;
    /** Only the consumer touches head. */
    private Node head = stub;
    private final Thread consumer;
    private volatile boolean sleeping;

    /** @param consumer the one thread that polls (the owning JMeter thread); null if it never sleeps in a poll */
    public CompletionQueue(Thread consumer) {
        this.consumer = consumer;
    }

    /** Any thread. */
    public void offer(Node n) {
        push(n);
        if (sleeping && consumer != null) {
            LockSupport.unpark(consumer);
        }
    }

    /**
     * Any thread: adds {@code n} without waking the consumer; the producer calls {@link #signal} once it has added
     * the batch at hand (an event loop: at the end of a read), so that the consumer wakes once per batch.
     */
    public void add(Node n) {
        push(n);
    }

    /** Any thread: wakes the consumer if it sleeps, after one or more {@link #add}s. */
    public void signal() {
        if (sleeping && consumer != null) {
            LockSupport.unpark(consumer);
        }
    }

    private void push(Node n) {
        NEXT.setRelease(n, (Node) null);
        Node prev = (Node) TAIL.getAndSet(this, n);
        // A volatile store, not a release: it must not pass the read of 'sleeping' that follows (Dekker).
        prev.next = n;
    }

    /** Consumer only: the oldest completed node, or null when none is (fully) in the queue yet. */
    public Node poll() {
        Node h = head;
        Node next = h.next;
        if (h == stub) {
            if (next == null) {
                return null;
            }
            head = next;
            h = next;
            next = next.next;
        }
        if (next != null) {
            head = next;
            return h;
        }
        if (h != tail) {
            return null; // a producer is between its exchange and its link; it unparks us when done
        }
        push(stub);
        next = h.next;
        if (next != null) {
            head = next;
            return h;
        }
        return null;
    }

    /** Consumer only: polls, sleeping up to {@code nanos} while the queue is empty. */
    public Node poll(long nanos) {
        Node n = poll();
        if (n != null || nanos <= 0) {
            return n;
        }
        sleeping = true;
        try {
            n = poll();
            if (n == null) {
                LockSupport.parkNanos(this, Math.min(nanos, TimeUnit.SECONDS.toNanos(1)));
                n = poll();
            }
        } finally {
            sleeping = false;
        }
        return n;
    }

    /** Wakes the consumer from another thread (stop-test-now). */
    public void wake() {
        LockSupport.unpark(consumer);
    }
}
