/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.builtintarget;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import java.util.concurrent.TimeUnit;

/** Answers each request with the static body once the request is complete; honours keep-alive and HEAD. */
final class StaticResponder extends ChannelInboundHandlerAdapter {

    private final ByteBuf body;
    private final int delayMs;
    private boolean keepAlive;
    private boolean head;

    StaticResponder(ByteBuf body, int delayMs) {
        this.body = body;
        this.delayMs = delayMs;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            if (msg instanceof HttpRequest request) {
                keepAlive = HttpUtil.isKeepAlive(request);
                head = HttpMethod.HEAD.equals(request.method());
            }
            if (msg instanceof LastHttpContent) {
                if (delayMs > 0) {
                    // Same delay on one event loop: the answers leave in request order, pipelined or not.
                    boolean k = keepAlive;
                    boolean h = head;
                    ctx.executor().schedule(() -> {
                        respond(ctx, k, h);
                        ctx.flush();
                    }, delayMs, TimeUnit.MILLISECONDS);
                } else {
                    respond(ctx, keepAlive, head);
                }
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    private void respond(ChannelHandlerContext ctx, boolean keepAlive, boolean head) {
        FullHttpResponse response = new DefaultFullHttpResponse(
                HttpVersion.HTTP_1_1, HttpResponseStatus.OK, head ? ctx.alloc().buffer(0) : body.duplicate());
        response.headers()
                .set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.TEXT_PLAIN)
                .setInt(HttpHeaderNames.CONTENT_LENGTH, body.readableBytes());
        if (!keepAlive) {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
        } else {
            ctx.write(response, ctx.voidPromise());
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        // One flush per batch of reads: pipelined requests leave in one write.
        ctx.flush();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }
}
