/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.xmpp;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLongFieldUpdater;
import java.util.function.Predicate;

/**
 * Where a session's stanzas go: to the first of the samples' waits that matches, else into a bounded inbox (the
 * oldest pushed out and counted beyond its limit) where a later wait looks first. The inbox is made at its first
 * stanza and let go when emptied, so a session whose samples wait for everything they get holds none. On the
 * session's loop only, except the counts.
 */
final class StanzaWaits {
    private static final AtomicLongFieldUpdater<StanzaWaits> OVERFLOW =
            AtomicLongFieldUpdater.newUpdater(StanzaWaits.class, "overflow");
    private final XmppSettings settings;
    private final List<Wait> waits = new ArrayList<>(1);
    private ArrayDeque<Received> inbox;
    /**
     * Stanzas pushed out of the full inbox since a wait last took the count: stanzas in the high half, messages
     * among them in the low half, so that both are taken at once.
     */
    private volatile long overflow;
    private volatile int notKept;
    private volatile int inboxSize;

    StanzaWaits(XmppSettings settings) {
        this.settings = settings;
    }

    /**
     * Any thread: the stanzas pushed out of the full inbox since the last call, as {stanzas, messages among them}, or
     * null when none was.
     */
    int[] takeOverflow() {
        long o = overflow == 0 ? 0 : OVERFLOW.getAndSet(this, 0);
        return o == 0 ? null : new int[] {(int) (o >>> 32), (int) o};
    }

    /** Any thread: stanzas nobody waited for that are not of a kind the inbox keeps (or it keeps none). */
    int notKept() {
        return notKept;
    }

    /** Any thread: stanzas kept for later waits. */
    int inboxSize() {
        return inboxSize;
    }

    /** @param sentNanos when the request this wait answers was written, 0 for none */
    void add(Predicate<XmlElement> matcher, CompletableFuture<Received> future, long sentNanos) {
        waits.add(new Wait(matcher, future, sentNanos));
    }

    /** A wait the caller gave up on: a stanza it would have matched now goes to the inbox. */
    void remove(CompletableFuture<Received> future) {
        waits.removeIf(w -> w.future == future);
    }

    /** {@code e}, whose bytes arrived at {@code arrivedNanos}, to the first live wait it matches, else kept. */
    void deliver(XmlElement e, long arrivedNanos) {
        for (Iterator<Wait> it = waits.iterator(); it.hasNext();) {
            Wait w = it.next();
            if (w.future.isDone()) {
                it.remove();
                continue;
            }
            if (w.matcher.test(e)) {
                it.remove();
                if (w.future.complete(new Received(e, arrivedNanos, w.sentNanos))) {
                    return;
                }
            }
        }
        keep(new Received(e, arrivedNanos, 0));
    }

    private void keep(Received r) {
        if (settings.inboxLimit() <= 0 || !settings.keeps(r.stanza().name())) {
            notKept++; // written on the loop only
            return;
        }
        if (inbox == null) {
            inbox = new ArrayDeque<>(4);
        }
        if (inbox.size() >= settings.inboxLimit()) {
            Received lost = inbox.pollFirst();
            OVERFLOW.getAndAdd(this, (1L << 32) | (lost.stanza().name().equals("message") ? 1 : 0));
        }
        inbox.addLast(r);
        inboxSize = inbox.size();
    }

    /** Completes {@code f} with the oldest kept stanza {@code matcher} accepts, taken out; false when none. */
    boolean fromInbox(Predicate<XmlElement> matcher, CompletableFuture<Received> f) {
        if (inbox == null) {
            return false;
        }
        for (Iterator<Received> it = inbox.iterator(); it.hasNext();) {
            Received r = it.next();
            if (matcher.test(r.stanza())) {
                it.remove();
                inboxSize = inbox.size();
                if (inbox.isEmpty()) {
                    inbox = null;
                }
                f.complete(r);
                return true;
            }
        }
        return false;
    }

    /** The session ended: every wait fails with {@code why}. */
    void failAll(XmppException why) {
        for (Wait w : waits) {
            w.future.completeExceptionally(why);
        }
        waits.clear();
    }

    private record Wait(Predicate<XmlElement> matcher, CompletableFuture<Received> future, long sentNanos) {
    }
}
