/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.websocket;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;

/**
 * Counts the bytes of the session's HTTP handshake and WebSocket frames as they cross the transport (beneath the
 * codecs, above TLS), and stamps when the first byte of the next message is read: JMeter's bytes and Latency.
 */
final class WireCounter extends ChannelDuplexHandler {
    private final WebSocketSession session;

    WireCounter(WebSocketSession session) {
        this.session = session;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof ByteBuf b) {
            session.read(b.readableBytes());
        }
        ctx.fireChannelRead(msg);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof ByteBuf b) {
            session.written(b.readableBytes());
        }
        ctx.write(msg, promise);
    }
}
