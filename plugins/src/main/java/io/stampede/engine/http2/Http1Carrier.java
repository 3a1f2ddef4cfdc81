/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.http2;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.stampede.engine.Failures;
import io.stampede.engine.http1.ResponseFramer;
import io.stampede.engine.http1.ResponseReader;

import java.io.IOException;

/**
 * An {@link Http2Connection} whose server chose HTTP/1.1 in ALPN: one HTTP/1.1 exchange at a time on the channel,
 * read by the engine's one HTTP/1.1 {@link ResponseReader}, with its stale keep-alive retry. Event loop only.
 */
final class Http1Carrier extends ChannelInboundHandlerAdapter implements Carrier, ResponseReader.OnWire<Http2Exchange> {
    private final Http2Connection connection;
    private final Channel ch;
    private final long connectStart;
    private final long connectEnd;
    private boolean connectTimesGiven;
    /** Requests this channel carried, the one in flight included. */
    private int sent;
    private Http2Exchange inFlight;
    private IOException cause;

    Http1Carrier(Http2Connection connection, Channel ch, long connectStart, long connectEnd) {
        this.connection = connection;
        this.ch = ch;
        this.connectStart = connectStart;
        this.connectEnd = connectEnd;
    }

    @Override
    public void sendPending() {
        while (inFlight == null && ch.isActive() && connection.hasPending()) {
            Http2Exchange e = connection.nextPending();
            if (!e.send(System.nanoTime(), this, 0)) {
                continue;
            }
            if (!connectTimesGiven) {
                connectTimesGiven = true;
                e.connected(connectStart, connectEnd);
            }
            inFlight = e;
            sent++;
            ch.writeAndFlush(e.request.http1().retainedBytes(), ch.voidPromise());
        }
    }

    @Override
    public void cancel(int streamId, Http2Exchange e) {
        if (inFlight == e) {
            inFlight = null;
            ch.close();
        }
    }

    /** The exchange in flight while it still waits for this response: not once its owner timed it out. */
    @Override
    public Http2Exchange awaiting() {
        Http2Exchange e = inFlight;
        return e != null && e.state() == Http2Exchange.SENT && e.carrier == this ? e : null;
    }

    @Override
    public ResponseFramer framer(Http2Exchange e) {
        return e.h1;
    }

    @Override
    public void completed(Http2Exchange e, long nowNanos) {
        inFlight = null;
        e.succeed(nowNanos);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf in = (ByteBuf) msg;
        try {
            if (!ResponseReader.read(in, this, System.nanoTime())) {
                ctx.close();
            } else if (inFlight == null) {
                sendPending();
            }
        } catch (IOException ex) {
            cause = ex;
            ctx.close();
        } finally {
            in.release();
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable t) {
        cause = Failures.io(t);
        ctx.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        Http2Exchange e = awaiting();
        inFlight = null;
        if (e != null) {
            if (cause == null && e.h1.closeReceived()) {
                e.succeed(System.nanoTime());
            } else if (ResponseReader.mayRetry(e, e.h1, true, sent, cause) && e.unsend()) {
                // The server dropped the idle keep-alive connection as the request went out: once more, anew.
                e.retrying();
                connection.retry(e);
            } else {
                e.failSent(cause != null ? cause : e.h1.closedEarly());
            }
        }
        if (connection.stopCarrying(this)) {
            connection.pump(); // HTTP/1.1 closes connections as a matter of course: the next request reconnects
        }
    }
}
