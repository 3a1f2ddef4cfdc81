/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.websocket;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * A session's messages that arrived with no call waiting for them: counted, and kept up to a limit (the oldest
 * dropped, and counted) for a later wait or for the next sample's sub-results. Made at a session's first such message,
 * so a session that only answers its own requests carries none. On the session's loop only.
 */
final class Inbox {
    private final int limit;
    /** Made at the first message kept. */
    private ArrayDeque<WebSocketMessage> kept;
    private long unsolicited;
    private long dropped;

    /** @param limit how many messages are kept; 0 keeps none (each is only counted) */
    Inbox(int limit) {
        this.limit = limit;
    }

    void add(WebSocketMessage m) {
        unsolicited++;
        if (limit <= 0) {
            dropped++;
            return;
        }
        if (kept == null) {
            kept = new ArrayDeque<>(Math.min(limit, 16));
        }
        if (kept.size() >= limit) {
            kept.poll();
            dropped++;
        }
        kept.add(m);
    }

    /** The oldest kept message that {@code match} accepts (null: any), taken out; null when none. */
    WebSocketMessage take(Predicate<WebSocketMessage> match) {
        if (kept != null) {
            for (var it = kept.iterator(); it.hasNext();) {
                WebSocketMessage m = it.next();
                if (match == null || match.test(m)) {
                    it.remove();
                    return m;
                }
            }
        }
        return null;
    }

    /** Every kept message, oldest first, taken out; null when none. */
    List<WebSocketMessage> drain() {
        if (kept == null || kept.isEmpty()) {
            return null;
        }
        List<WebSocketMessage> all = new ArrayList<>(kept);
        kept.clear();
        return all;
    }

    /** Messages that arrived with nobody waiting, since the session was made. */
    long unsolicited() {
        return unsolicited;
    }

    /** Of those, the ones not kept (over the limit). */
    long dropped() {
        return dropped;
    }
}
