/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.http2;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http2.DefaultHttp2HeadersDecoder;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersDecoder;

/**
 * One connection's HPACK decoder that answers a header block byte for byte equal to the last one with the last
 * one's fields instead of decoding it again.
 *
 * <p>Sound only while the decoder's header table is 0 (we announce it; Netty applies it when the server acknowledges
 * our SETTINGS): then no block refers to an earlier one, so equal bytes are equal fields. A server sends the same
 * block for the same resource until its Date changes, so at tens of thousands of responses per second nearly every
 * head repeats; Huffman-decoding them again was 8 % of a JMeter process's CPU samples (h2c, 10 x 20 streams).
 *
 * <p>A repeat returns the same {@link Http2Headers}: its readers are Netty's connection decoder, which rewrites
 * content-length to the value it already has, and the stream's listener, which copies what it shows at once, both on
 * the connection's event loop before the next block is read.
 */
final class RepeatedHeaderBlockDecoder implements Http2HeadersDecoder, Http2HeadersDecoder.Configuration {
    private final DefaultHttp2HeadersDecoder decoder;
    private byte[] last = new byte[256];
    private ByteBuf lastView = Unpooled.wrappedBuffer(last);
    private int lastLength;
    private Http2Headers lastHeaders;

    RepeatedHeaderBlockDecoder(long maxHeaderListSize) {
        // Names and values validated as RFC 9113 §8.2.1 asks: a value with CR, LF or NUL is a malformed response
        // (a stream error), not extra header lines in what JMeter shows and extracts from.
        this.decoder = new DefaultHttp2HeadersDecoder(true, true, maxHeaderListSize);
    }

    @Override
    public Http2Headers decodeHeaders(int streamId, ByteBuf block) throws Http2Exception {
        int n = block.readableBytes();
        if (lastHeaders != null && n == lastLength && ByteBufUtil.equals(block, block.readerIndex(), lastView, 0, n)) {
            block.skipBytes(n);
            return lastHeaders;
        }
        lastHeaders = null;
        if (n > last.length) {
            last = new byte[Math.max(n, last.length * 2)];
            lastView = Unpooled.wrappedBuffer(last);
        }
        block.getBytes(block.readerIndex(), last, 0, n);
        Http2Headers headers = decoder.decodeHeaders(streamId, block);
        if (decoder.maxHeaderTableSize() == 0) {
            lastLength = n;
            lastHeaders = headers;
        }
        return headers;
    }

    @Override
    public Configuration configuration() {
        return this;
    }

    @Override
    public void maxHeaderTableSize(long max) throws Http2Exception {
        lastHeaders = null; // a block decoded under another table size proves nothing about the next
        decoder.maxHeaderTableSize(max);
    }

    @Override
    public long maxHeaderTableSize() {
        return decoder.maxHeaderTableSize();
    }

    @Override
    public void maxHeaderListSize(long max, long goAwayMax) throws Http2Exception {
        lastHeaders = null;
        decoder.maxHeaderListSize(max, goAwayMax);
    }

    @Override
    public long maxHeaderListSize() {
        return decoder.maxHeaderListSize();
    }

    @Override
    public long maxHeaderListSizeGoAway() {
        return decoder.maxHeaderListSizeGoAway();
    }
}
