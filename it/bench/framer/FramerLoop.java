/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.bench.framer;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.stampede.engine.http1.ResponseFramer;

import java.util.Arrays;
import java.util.function.LongUnaryOperator;
import java.util.function.Supplier;

/**
 * Frames one recorded response over and over, as a connection does: reset, then feed the reads (one, or the head and
 * the body separately) from a heap buffer like the thread-I/O connection's. Loaded once per framer version, each copy
 * in its own class loader, so it links to that loader's {@code ResponseFramer} and the JIT profiles each copy alone.
 * Only JDK types cross the loader boundary: {@link LongUnaryOperator} runs n responses, {@link Supplier} describes
 * the framed outcome so that the harness can check both versions frame the bytes the same way.
 */
public final class FramerLoop implements LongUnaryOperator, Supplier<String> {
    private final ResponseFramer framer = new ResponseFramer();
    private final ByteBuf[] reads;
    private final int[] lengths;
    private final int keepLimit;

    /** {@code cuts} are where one read ends and the next begins (empty: the whole response in one read). */
    public FramerLoop(byte[] response, int[] cuts, Integer keepLimit) {
        int[] bounds = new int[cuts.length + 2];
        System.arraycopy(cuts, 0, bounds, 1, cuts.length);
        bounds[bounds.length - 1] = response.length;
        reads = new ByteBuf[bounds.length - 1];
        lengths = new int[reads.length];
        for (int i = 0; i < reads.length; i++) {
            lengths[i] = bounds[i + 1] - bounds[i];
            reads[i] = Unpooled.wrappedBuffer(Arrays.copyOfRange(response, bounds[i], bounds[i + 1]));
        }
        this.keepLimit = keepLimit;
    }

    /** Frames {@code n} responses; the returned sum of what a sampler reads keeps the work from being optimised away. */
    @Override
    public long applyAsLong(long n) {
        long sink = 0;
        try {
            for (long r = 0; r < n; r++) {
                framer.reset(false, keepLimit);
                boolean done = false;
                for (int i = 0; i < reads.length; i++) {
                    ByteBuf in = reads[i];
                    in.setIndex(0, lengths[i]);
                    done = framer.feed(in);
                }
                if (!done) {
                    throw new IllegalStateException("response not complete after its last byte");
                }
                sink += framer.status() + framer.keptBodyLength() + framer.totalBytes() + (framer.reusable() ? 1 : 0);
            }
        } catch (java.net.ProtocolException e) {
            throw new IllegalStateException(e);
        }
        return sink;
    }

    @Override
    public String get() {
        applyAsLong(1);
        return "status " + framer.status() + ", " + framer.headerBytes() + " head + " + framer.bodyBytes()
                + " body bytes, kept body " + Arrays.hashCode(framer.keptBody()) + " (" + framer.keptBodyLength()
                + " bytes), reusable " + framer.reusable() + ", Content-Type " + framer.contentType();
    }
}
