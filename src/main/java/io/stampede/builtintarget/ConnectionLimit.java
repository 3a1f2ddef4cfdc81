/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.builtintarget;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The cap on connections open at once, shared by the server's connections: one past it is answered
 * {@code 503 Service Unavailable}, saying which option to raise, and closed; the client sees an error it can count
 * instead of a connection that hangs in the backlog.
 */
@ChannelHandler.Sharable
final class ConnectionLimit extends ChannelInboundHandlerAdapter {
    private final int max;
    private final byte[] refusal;
    private final AtomicInteger open = new AtomicInteger();
    private final AtomicLong refused = new AtomicLong();

    ConnectionLimit(int max) {
        this.max = max;
        String body = "stampede target: --max-connections " + max + " reached\n";
        this.refusal = ("HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\nContent-Length: "
                + body.length() + "\r\nConnection: close\r\n\r\n" + body).getBytes(StandardCharsets.US_ASCII);
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        if (open.incrementAndGet() > max) {
            open.decrementAndGet();
            refused.incrementAndGet();
            ctx.channel().config().setAutoRead(false);
            ctx.writeAndFlush(Unpooled.wrappedBuffer(refusal)).addListener(ChannelFutureListener.CLOSE);
            return;
        }
        ctx.channel().closeFuture().addListener(f -> open.decrementAndGet());
        ctx.pipeline().remove(this);
        super.channelActive(ctx);
    }

    /** Connections open now (refused ones not counted). */
    int open() {
        return open.get();
    }

    /** Connections refused since the start. */
    long refused() {
        return refused.get();
    }
}
