/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.websocket;

import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CorruptedWebSocketFrameException;
import io.netty.handler.codec.http.websocketx.PingWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PongWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketCloseStatus;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketHandshakeException;
import io.netty.util.ReferenceCountUtil;
import io.stampede.engine.Failures;

import java.io.IOException;

/**
 * The last handler of a session's pipeline, one per connection: what the server sends, as the session sees it. The
 * answer to the upgrade goes to {@link Handshake}; a ping is answered with its pong; a whole message (its fragments
 * joined by the aggregator before it) goes to the session; the server's close frame, the end of the connection and
 * a broken frame end the session, failing the call under way. Events of a connection the session has since replaced
 * are dropped, so they never touch the current one.
 */
final class InboundFrames extends ChannelInboundHandlerAdapter {
    private final WebSocketSession session;

    InboundFrames(WebSocketSession session) {
        this.session = session;
    }

    /**
     * The TCP connect is done (for wss the TLS handshake starts now): the handshake timeout counts from here, so it
     * covers the TLS handshake and the upgrade.
     */
    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        WebSocketSession s = session;
        // channel is still null when the connect completed at once, inside Connector.open
        if ((s.channel == null || ctx.channel() == s.channel) && s.running >= 0 && s.call.isArmed(s.running)) {
            s.call.connectedNanos = System.nanoTime();
        }
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (ctx.channel() != session.channel) {
            ReferenceCountUtil.release(msg);
            return;
        }
        try {
            if (msg instanceof FullHttpResponse r) {
                Handshake.answered(session, r);
            } else if (msg instanceof WebSocketFrame f) {
                frame(ctx, f);
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    private void frame(ChannelHandlerContext ctx, WebSocketFrame f) {
        WebSocketSession s = session;
        if (f instanceof PingWebSocketFrame) {
            ctx.writeAndFlush(new PongWebSocketFrame(f.content().retain()));
            s.messageStart = 0;
        } else if (f instanceof PongWebSocketFrame) {
            s.messageStart = 0;
        } else if (f instanceof CloseWebSocketFrame close) {
            closeFrame(ctx, close);
        } else {
            long first = s.messageStart != 0 ? s.messageStart : System.nanoTime();
            s.messageStart = 0;
            s.deliver(new WebSocketMessage(f instanceof TextWebSocketFrame, ByteBufUtil.getBytes(f.content()), first));
        }
    }

    private void closeFrame(ChannelHandlerContext ctx, CloseWebSocketFrame close) {
        WebSocketSession s = session;
        int code = close.statusCode() < 0 ? WebSocketCloseStatus.EMPTY.code() : close.statusCode();
        String reason = close.reasonText();
        if (s.closing) {
            WebSocketCall c = s.call;
            if (c.kind == WebSocketCall.Kind.CLOSE && c.isArmed(s.running)) {
                c.status = code;
                c.statusText = reason;
                s.complete(c, s.running);
            }
            ctx.close();
            return;
        }
        // The server's close: echo its code (RFC 6455 5.5.1), then the server ends the TCP connection.
        s.open = false;
        OutboundFrames.stopPings(s);
        IOException why = new WebSocketClosedException(code, reason);
        s.ended = why;
        ctx.writeAndFlush(new CloseWebSocketFrame(code, null)).addListener(x -> ctx.close());
        s.failRunning(why);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        WebSocketSession s = session;
        if (ctx.channel() != s.channel) {
            return;
        }
        s.open = false;
        OutboundFrames.stopPings(s);
        WebSocketCall c = s.call;
        if (s.closing) {
            s.closing = false;
            if (c.kind == WebSocketCall.Kind.CLOSE && c.isArmed(s.running)) {
                // The server ended the connection without its close frame: the session is closed all the same.
                c.status = WebSocketClosedException.ABNORMAL;
                s.complete(c, s.running);
            }
            return;
        }
        IOException why = s.ended;
        if (why == null) {
            why = s.upgrade != null
                    ? new WebSocketClosedException(WebSocketClosedException.ABNORMAL, "(during the handshake)")
                    : new WebSocketClosedException(WebSocketClosedException.ABNORMAL, "(connection lost)");
            s.ended = why;
        }
        s.upgrade = null;
        s.failRunning(why);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        WebSocketSession s = session;
        if (ctx.channel() != s.channel) {
            ctx.close();
            return;
        }
        IOException why;
        if (cause instanceof TooLongFrameException || cause.getCause() instanceof TooLongFrameException) {
            why = new WebSocketProtocolException("Message larger than the limit of " + s.options.maxMessageBytes()
                    + " bytes");
            if (s.open) {
                ctx.writeAndFlush(new CloseWebSocketFrame(WebSocketCloseStatus.MESSAGE_TOO_BIG));
            }
        } else if (cause instanceof CorruptedWebSocketFrameException
                || cause.getCause() instanceof CorruptedWebSocketFrameException) {
            why = new WebSocketProtocolException(String.valueOf(cause.getMessage()));
        } else if (cause instanceof WebSocketHandshakeException) {
            why = new WebSocketHandshakeInvalidException(cause.getMessage());
        } else {
            why = Failures.io(cause);
        }
        s.open = false;
        if (s.ended == null) {
            s.ended = why;
        }
        s.failRunning(why);
        ctx.close();
    }
}
