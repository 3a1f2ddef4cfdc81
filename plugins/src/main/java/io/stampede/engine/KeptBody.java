/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine;

import io.netty.buffer.ByteBuf;

import java.util.Arrays;

/**
 * The kept part of one response body at a time, reused from response to response on one connection (HTTP/1.1) or
 * stream slot (HTTP/2).
 *
 * <p>It grows as bytes arrive, up to the caller's limit, and gives a large buffer up at the next {@link #clear()}: a
 * connection that downloaded a 50 MB file once holds no 50 MB for the rest of the run. Small bodies, the common
 * case, keep their buffer, so they allocate nothing. Growth is computed in long, so a body past 1 GiB neither
 * overflows the doubling nor asks for more than an array can hold.
 */
public final class KeptBody {
    /** A buffer larger than this is dropped when the next response starts. */
    public static final int RETAINED_CAPACITY = 64 * 1024;
    /** The largest array the JVM reliably allocates (as ArrayList and ByteArrayOutputStream assume). */
    public static final int MAX_ARRAY = Integer.MAX_VALUE - 8;
    private static final int INITIAL_CAPACITY = 64;

    private byte[] bytes = new byte[INITIAL_CAPACITY];
    private int length;
    /** Body bytes of this response that arrived but did not fit under the limit. */
    private long dropped;

    /** Forgets the last body; a buffer grown past {@link #RETAINED_CAPACITY} is given up. */
    public void clear() {
        length = 0;
        dropped = 0;
        if (bytes.length > RETAINED_CAPACITY) {
            bytes = new byte[INITIAL_CAPACITY];
        }
    }

    /**
     * Copies {@code n} readable bytes of {@code in} from its reader index (which does not move), or as many of them
     * as still fit under {@code limit}; the rest are the caller's to count and skip.
     *
     * @return the bytes copied
     */
    public int add(ByteBuf in, int n, int limit) {
        int copy = Math.min(n, Math.min(limit, MAX_ARRAY) - length);
        if (copy <= 0) {
            dropped += n;
            return 0;
        }
        dropped += n - copy;
        int needed = length + copy;
        if (needed > bytes.length) {
            bytes = Arrays.copyOf(bytes, grown(bytes.length, needed, limit));
        }
        in.getBytes(in.readerIndex(), bytes, length, copy);
        length = needed;
        return copy;
    }

    /** The next capacity for {@code needed} bytes: doubled, at most the limit and the largest array. */
    public static int grown(int capacity, int needed, int limit) {
        long doubled = Math.max((long) capacity * 2, needed);
        return (int) Math.min(doubled, Math.min(limit, MAX_ARRAY));
    }

    /**
     * Whether body bytes arrived that the kept ones lack. Not the received count against {@link #length()}: that count
     * includes chunked framing (and HTTP/2 padding), which is never kept.
     */
    public boolean cut() {
        return dropped > 0;
    }

    public int length() {
        return length;
    }

    /** The bytes in place, valid in {@code [0, length())} until the next {@link #clear()}. */
    public byte[] buffer() {
        return bytes;
    }

    /**
     * The kept bytes as an array of their own. A body larger than {@link #RETAINED_CAPACITY} is taken: its buffer
     * is handed over when filled exactly (else trimmed once) and this keeps a small one, so a connection that sits
     * idle after a large download holds nothing of it; {@link #length()} is then 0.
     */
    public byte[] copy() {
        if (bytes.length <= RETAINED_CAPACITY) {
            return Arrays.copyOf(bytes, length);
        }
        byte[] taken = length == bytes.length ? bytes : Arrays.copyOf(bytes, length);
        bytes = new byte[INITIAL_CAPACITY];
        length = 0;
        return taken;
    }

    /** The buffer's size now, for tests of what a connection holds between responses. */
    public int capacity() {
        return bytes.length;
    }
}
