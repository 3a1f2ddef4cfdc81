/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.http2;

import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http2.DecoratingHttp2ConnectionEncoder;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2ConnectionEncoder;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2LifecycleManager;

/**
 * A cap on the control frames we owe a server and could not write yet: the acknowledgements of its SETTINGS and
 * PINGs, and our RST_STREAMs. A server that floods PINGs and reads nothing would otherwise grow our outbound buffer
 * without end; past the cap the connection ends with ENHANCE_YOUR_CALM and its streams fail as a protocol error.
 *
 * <p>Netty's handler builder adds the same guard, but only to the codec it builds itself; a session that builds its
 * own codec (for its own headers decoder) adds this one. A frame counts from its write until the socket took it.
 */
final class ControlFrameLimit extends DecoratingHttp2ConnectionEncoder {
    /** Netty's default for the same guard. */
    static final int DEFAULT_MAX = Http2CodecUtil.DEFAULT_MAX_QUEUED_CONTROL_FRAMES;

    private final int max;
    private final ChannelFutureListener written = f -> written();
    private Http2LifecycleManager lifecycle;
    private int queued;
    private boolean exceeded;

    ControlFrameLimit(Http2ConnectionEncoder delegate, int max) {
        super(delegate);
        if (max < 1) {
            throw new IllegalArgumentException("the control frame limit must be at least 1: " + max);
        }
        this.max = max;
    }

    @Override
    public void lifecycleManager(Http2LifecycleManager manager) {
        lifecycle = manager;
        super.lifecycleManager(manager);
    }

    @Override
    public ChannelFuture writeSettingsAck(ChannelHandlerContext ctx, ChannelPromise promise) {
        ChannelPromise counted = admit(ctx, promise);
        return counted == null ? promise : super.writeSettingsAck(ctx, counted);
    }

    @Override
    public ChannelFuture writePing(ChannelHandlerContext ctx, boolean ack, long data, ChannelPromise promise) {
        if (!ack) {
            return super.writePing(ctx, false, data, promise); // ours: one at a time, on our schedule
        }
        ChannelPromise counted = admit(ctx, promise);
        return counted == null ? promise : super.writePing(ctx, true, data, counted);
    }

    @Override
    public ChannelFuture writeRstStream(ChannelHandlerContext ctx, int streamId, long errorCode,
                                        ChannelPromise promise) {
        ChannelPromise counted = admit(ctx, promise);
        return counted == null ? promise : super.writeRstStream(ctx, streamId, errorCode, counted);
    }

    private void written() {
        queued--;
    }

    /** The promise to write with, counted until the write completes; null (the promise failed) past the cap. */
    private ChannelPromise admit(ChannelHandlerContext ctx, ChannelPromise promise) {
        if (queued >= max) {
            Http2Exception e = Http2Exception.connectionError(Http2Error.ENHANCE_YOUR_CALM,
                    "the server sent control frames (PING, SETTINGS) faster than it reads our answers: %d "
                            + "answers queued", queued);
            promise.setFailure(e);
            if (!exceeded) {
                exceeded = true;
                lifecycle.onError(ctx, true, e);
            }
            return null;
        }
        queued++;
        ChannelPromise p = promise.unvoid();
        p.addListener(written);
        return p;
    }
}
