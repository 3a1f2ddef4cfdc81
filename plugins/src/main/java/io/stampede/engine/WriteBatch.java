/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine;

import java.util.Arrays;

/**
 * Requests that a thread driving its own event loop has made due, written together when it next runs the loop.
 * Writing each at once would hand the server one request per wake-up; written together, as wrk writes all its
 * connections' requests in one pass of its loop, they reach the server in a burst that one of its epoll waits
 * serves. A request is time-stamped when it is written, so the wait in the batch does not count in its response
 * time. Owner thread only.
 */
public final class WriteBatch {
    /** A connection with requests waiting in the batch. */
    public interface Pending {
        /** Writes what was submitted since the last flush. */
        void writeBatched();
    }

    private Pending[] pending = new Pending[16];
    private int size;

    /** A connection with requests to write; each connection is in the batch at most once. */
    public void add(Pending c) {
        if (size == pending.length) {
            pending = Arrays.copyOf(pending, size * 2);
        }
        pending[size++] = c;
    }

    /** Writes every pending request (one write and flush per connection). */
    public void flush() {
        // Index loop: a write failing at once may not add to the batch, but stay safe if it ever does.
        for (int i = 0; i < size; i++) {
            Pending c = pending[i];
            pending[i] = null;
            c.writeBatched();
        }
        size = 0;
    }
}
