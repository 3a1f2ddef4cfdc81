/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.builtintarget;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Stops reading a connection while its replies wait to be written (the outbound buffer above its high water mark)
 * and reads again once they have drained: a client that pipelines requests and never reads the answers stalls
 * in its own socket instead of growing the target's memory. What one read brought in is still answered, so the
 * queue stays within about one read's worth of replies above the mark.
 */
final class Backpressure extends ChannelInboundHandlerAdapter {
    private final AtomicInteger paused;
    private boolean pausedHere;

    /** @param paused the server's count of connections not read now, moved only when this one pauses or resumes */
    Backpressure(AtomicInteger paused) {
        this.paused = paused;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ctx.fireChannelRead(msg);
        pauseIfFull(ctx);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        ctx.fireChannelReadComplete(); // the responder flushes here: writability is known after it
        pauseIfFull(ctx);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        // Also for replies written late (--delay-ms), after the read that asked for them.
        if (ctx.channel().isWritable()) {
            resume(ctx);
        } else {
            pauseIfFull(ctx);
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (pausedHere) {
            pausedHere = false;
            paused.decrementAndGet();
        }
        ctx.fireChannelInactive();
    }

    private void pauseIfFull(ChannelHandlerContext ctx) {
        if (!pausedHere && !ctx.channel().isWritable()) {
            pausedHere = true;
            paused.incrementAndGet();
            ctx.channel().config().setAutoRead(false);
        }
    }

    private void resume(ChannelHandlerContext ctx) {
        if (pausedHere) {
            pausedHere = false;
            paused.decrementAndGet();
            ctx.channel().config().setAutoRead(true);
        }
    }
}
