/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.websocket;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PingWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketCloseStatus;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.stampede.engine.Failures;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * What a session writes on its own initiative: a call's message, our side of the close handshake, the going-away
 * close when the thread gives up, and our pings. Functions of the session rather than an object of their own, so an
 * idle session carries nothing more for them than its pings' schedule. On the session's loop only.
 */
final class OutboundFrames {
    private OutboundFrames() {
    }

    /** A send call: the message out; a plain send completes once written, a request then waits for its reply. */
    static void send(WebSocketSession s, WebSocketCall c, int gen) {
        if (!s.open) {
            s.fail(gen, s.notOpen());
            return;
        }
        ByteBuf data = Unpooled.wrappedBuffer(c.payload);
        WebSocketFrame frame = c.text ? new TextWebSocketFrame(data) : new BinaryWebSocketFrame(data);
        if (c.kind == WebSocketCall.Kind.SEND_AND_WAIT) {
            s.waiting = gen;
        }
        WebSocketCall call = s.call;
        s.channel.writeAndFlush(frame).addListener(w -> {
            if (!w.isSuccess()) {
                s.fail(gen, Failures.io(w.cause()));
            } else if (call.isArmed(gen)) {
                call.sentNanos = System.nanoTime();
                if (call.kind == WebSocketCall.Kind.SEND) {
                    s.complete(call, gen);
                }
            }
        });
    }

    /** A close call: our close frame out; the server's answer (or the end of the connection) completes it. */
    static void close(WebSocketSession s, WebSocketCall c, int gen) {
        if (!s.open) {
            IOException e = s.ended;
            if (e != null) {
                s.fail(gen, e);
            } else {
                s.complete(c, gen);
            }
            return;
        }
        s.open = false;
        s.closing = true;
        stopPings(s);
        WebSocketCall call = s.call;
        s.channel.writeAndFlush(new CloseWebSocketFrame(c.closeCode, c.closeReason)).addListener(w -> {
            if (call.isArmed(gen)) {
                call.sentNanos = System.nanoTime();
            }
        });
    }

    /** The thread gave up on the session: an open one says going away (1001) before the connection ends. */
    static void goAway(WebSocketSession s) {
        if (s.channel == null) {
            return;
        }
        if (s.open) {
            s.open = false;
            s.closing = true;
            stopPings(s);
            s.channel.writeAndFlush(new CloseWebSocketFrame(WebSocketCloseStatus.ENDPOINT_UNAVAILABLE))
                    .addListener(ChannelFutureListener.CLOSE);
        } else {
            // Our own close (a deadline passed): not a closure by the server to report at the next use.
            s.closing = true;
            s.channel.close();
        }
    }

    /** Our pings, when the options ask for them: from the open to any close, so a closed session holds no timer. */
    static void startPings(WebSocketSession s) {
        long every = s.options.pingMillis();
        if (every > 0) {
            s.pings = s.loop.scheduleAtFixedRate(() -> ping(s), every, every, TimeUnit.MILLISECONDS);
        }
    }

    private static void ping(WebSocketSession s) {
        if (s.open) {
            s.channel.writeAndFlush(new PingWebSocketFrame());
        }
    }

    static void stopPings(WebSocketSession s) {
        if (s.pings != null) {
            s.pings.cancel(false);
            s.pings = null;
        }
    }
}
