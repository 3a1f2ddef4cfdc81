/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.http2;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.Http2FrameAdapter;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Settings;

/**
 * The frames an {@link Http2Session} reads, as Netty's HTTP/2 codec hands them over: SETTINGS completes the connect,
 * HEADERS and DATA fill the stream's response, RST_STREAM and GOAWAY end streams. Event loop only.
 */
final class StreamFrames extends Http2FrameAdapter {
private final Http2Session session;

StreamFrames(Http2Session session) {
    this.session = session;
}

    @Override
    public void onSettingsRead(ChannelHandlerContext ctx, Http2Settings settings) {
        session.settingsReceived(ctx.channel());
    }

    @Override
    public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int padding,
                              boolean endOfStream) {
        Http2Exchange e = session.carried(streamId, endOfStream);
        if (e == null) {
            return;
        }
        e.byteReceived(System.nanoTime());
        e.h2.headers(headers);
        if (endOfStream) {
            session.finish(streamId, e);
        }
    }

    @Override
    public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int dependency,
                              short weight, boolean exclusive, int padding, boolean endOfStream) {
        onHeadersRead(ctx, streamId, headers, padding, endOfStream);
    }

    @Override
    public int onDataRead(ChannelHandlerContext ctx, int streamId, ByteBuf data, int padding,
                          boolean endOfStream) {
        Http2Exchange e = session.carried(streamId, endOfStream);
        if (e != null) {
            e.h2.data(data, padding);
            if (endOfStream) {
                session.finish(streamId, e);
            }
        }
        // Consumed at once: the window opens again as fast as the data comes.
        return data.readableBytes() + padding;
    }

    @Override
    public void onRstStreamRead(ChannelHandlerContext ctx, int streamId, long errorCode) {
        session.streamReset(streamId, errorCode);
    }

    @Override
    public void onGoAwayRead(ChannelHandlerContext ctx, int lastStreamId, long errorCode, ByteBuf debugData) {
        session.goAway(lastStreamId, errorCode);
    }
}
