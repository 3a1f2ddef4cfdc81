/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.http1;

/**
 * The pipelining ring of an {@link Http1Connection}: the exchanges submitted to it, in order; the first
 * {@link #written} of them are on the wire and their responses come back in that order. Event loop only.
 */
final class PipelineRing {
    private final Http1Exchange[] ring;
    private int head;
    private int size;
    private int written;

    PipelineRing(int depth) {
        ring = new Http1Exchange[depth];
    }

    /** Exchanges submitted and not completed, on the wire or waiting for it. */
    int size() {
        return size;
    }

    /** How many of them are on the wire. */
    int written() {
        return written;
    }

    /** The oldest exchange (the first on the wire, if any is); only when {@link #size} is not 0. */
    Http1Exchange head() {
        return ring[head];
    }

    void add(Http1Exchange e) {
        ring[(head + size) % ring.length] = e;
        size++;
    }

    /** The next exchange not on the wire yet, counted as written; null when all are. */
    Http1Exchange nextUnwritten() {
        if (written >= size) {
            return null;
        }
        return ring[(head + written++) % ring.length];
    }

    /** The channel went away before any response: every exchange left is to be written again, on a new one. */
    void unwriteAll() {
        written = 0;
    }

    /**
     * Before a new channel: what the old one left in the ring goes. The owner may close a channel (a timeout, an
     * interrupt) and arm again before the old channel's inactive event runs, which is then ignored, as it belongs to a
     * channel no longer current: exchanges the owner already completed are dropped, ones still waiting for a response
     * on the old channel fail as closed, and armed ones stay, in order, for the new channel (except one armed again
     * after its owner gave up on it: its own submit is queued and adds it).
     */
    void forgetOldChannel() {
        int kept = 0;
        for (int i = 0; i < size; i++) {
            Http1Exchange e = ring[(head + i) % ring.length];
            if (e.state() == Http1Exchange.ARMED && !e.armedAgain()) {
                ring[(head + kept++) % ring.length] = e;
            } else if (e.state() == Http1Exchange.SENT) {
                e.fail(e.framer.closedEarly());
            }
        }
        for (int i = kept; i < size; i++) {
            ring[(head + i) % ring.length] = null;
        }
        size = kept;
        written = 0;
    }

    /**
     * Drops the ring's entries the owner settled itself. An exchange the owner failed (response timeout, interrupt,
     * connect timeout) stays in the ring until the channel it closed reports inactive, and by then the owner may have
     * taken the outcome and armed the same exchange (a depth-1 connection has one) for its next request. That entry
     * is no longer the old channel's: failing it with the old channel would fail the new request before it is sent,
     * and keeping it would count the exchange twice, so the stale keep-alive retry (one exchange in the ring) would
     * never apply on this connection again. On the wire only SENT entries are live, off it only ARMED ones not armed
     * again since they were submitted (an owner that gave up on a connect arms again while the ring still holds the
     * entry), and {@code resubmitted} (being submitted again now) is live only as the entry about to be added.
     */
    void dropSettled(Http1Exchange resubmitted) {
        int kept = 0;
        int keptWritten = 0;
        for (int i = 0; i < size; i++) {
            Http1Exchange x = ring[(head + i) % ring.length];
            boolean onWire = i < written;
            if (x != resubmitted && x.state() == (onWire ? Http1Exchange.SENT : Http1Exchange.ARMED) && !x.armedAgain()) {
                ring[(head + kept++) % ring.length] = x;
                if (onWire) {
                    keptWritten++;
                }
            }
        }
        for (int i = kept; i < size; i++) {
            ring[(head + i) % ring.length] = null;
        }
        size = kept;
        written = keptWritten;
    }

    Http1Exchange pop() {
        Http1Exchange e = ring[head];
        ring[head] = null;
        head = (head + 1) % ring.length;
        size--;
        if (written > 0) {
            written--;
        }
        return e;
    }
}
