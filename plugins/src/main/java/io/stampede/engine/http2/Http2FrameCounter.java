/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.http2;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;

/**
 * Reads the 9-byte frame headers of an HTTP/2 connection in both directions as the bytes pass, without consuming
 * them, and reports each frame's type, stream and payload length. Netty's codec hands on decoded header fields but
 * not the size of the compressed block they came in, and JMeter's byte columns are about the wire: this is where
 * HEADERS, CONTINUATION and DATA sizes per stream come from.
 */
final class Http2FrameCounter extends ChannelDuplexHandler {
    /** Told of each frame as its header passes. */
    interface Listener {
        void frame(boolean inbound, int streamId, int type, int payloadLength);
    }

    static final int DATA = 0x0;
    static final int HEADERS = 0x1;
    static final int CONTINUATION = 0x9;
    /** The client connection preface (RFC 9113 §3.4) precedes the client's first frame. */
    private static final int PREFACE_LENGTH = 24;

    private final Listener listener;
    private final Direction in = new Direction(true, 0);
    private final Direction out = new Direction(false, PREFACE_LENGTH);

    Http2FrameCounter(Listener listener) {
        this.listener = listener;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof ByteBuf b) {
            in.scan(b);
        }
        ctx.fireChannelRead(msg);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof ByteBuf b) {
            out.scan(b);
        }
        ctx.write(msg, promise);
    }

    /** One direction's position in the frame sequence, across buffer boundaries. */
    private final class Direction {
        private final boolean inbound;
        private final byte[] header = new byte[9];
        private int headerRead;
        private long skip;

        Direction(boolean inbound, int skip) {
            this.inbound = inbound;
            this.skip = skip;
        }

        void scan(ByteBuf b) {
            int i = b.readerIndex();
            int end = b.writerIndex();
            while (i < end) {
                if (skip > 0) {
                    int n = (int) Math.min(skip, end - i);
                    skip -= n;
                    i += n;
                    continue;
                }
                if (headerRead == 0 && end - i >= 9) {
                    // fast path: the whole frame header is in this buffer
                    frame(b.getUnsignedMedium(i), b.getUnsignedByte(i + 3), b.getInt(i + 5) & 0x7fffffff);
                    i += 9;
                    continue;
                }
                header[headerRead++] = b.getByte(i++);
                if (headerRead == 9) {
                    headerRead = 0;
                    int length = (header[0] & 0xff) << 16 | (header[1] & 0xff) << 8 | header[2] & 0xff;
                    int stream = ((header[5] & 0x7f) << 24 | (header[6] & 0xff) << 16 | (header[7] & 0xff) << 8
                            | header[8] & 0xff);
                    frame(length, header[3] & 0xff, stream);
                }
            }
        }

        private void frame(int length, int type, int stream) {
            skip = length;
            listener.frame(inbound, stream, type, length);
        }
    }
}
