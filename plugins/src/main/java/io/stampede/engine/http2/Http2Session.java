/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.http2;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.Http2ConnectionDecoder;
import io.netty.handler.codec.http2.Http2ConnectionEncoder;
import io.netty.handler.codec.http2.Http2ConnectionHandler;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.timeout.IdleState;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.collection.IntObjectHashMap;
import io.netty.util.collection.IntObjectMap;
import io.stampede.engine.Failures;
import io.stampede.engine.GoAwayException;
import io.stampede.engine.Http2ProtocolException;
import io.stampede.engine.PingTimeoutException;
import io.stampede.engine.StreamResetException;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The HTTP/2 session of one {@link Http2Connection}'s channel: its streams in flight by id, opening streams for the
 * requests that wait (within ours and the server's limits), the GOAWAY and reset handling, draining, and the PING
 * keep-alive. The frames the server sends reach it through {@link StreamFrames}. Event loop only.
 */
final class Http2Session extends Http2ConnectionHandler implements Carrier, Http2FrameCounter.Listener {
    private final Http2Connection connection;
    private final IntObjectMap<Http2Exchange> inFlight = new IntObjectHashMap<>();
    private final StreamFrames frames = new StreamFrames(this);
    private final long connectStart;
    private long connectEnd;
    private ChannelHandlerContext ctx;
    private boolean ready;
    private boolean draining;
    private boolean afterRead;
    private boolean connectTimesGiven;
    private int opened;
    private IOException cause;
    private long goAwayCode = -1;
    private long pingsSent;

    Http2Session(Http2Connection connection, Http2ConnectionDecoder decoder, Http2ConnectionEncoder encoder,
                 Http2Settings settings, long connectStart) {
        super(decoder, encoder, settings);
        this.connection = connection;
        this.connectStart = connectStart;
    }

    /** Where the codec hands the frames read. */
    StreamFrames frames() {
        return frames;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) throws Exception {
        this.ctx = ctx;
        super.handlerAdded(ctx);
        // HTTP/2's default windows are 64 KiB; SETTINGS raises the streams', a WINDOW_UPDATE the connection's.
        int raise = connection.options().connectionWindow() - 65_535;
        if (raise > 0) {
            connection().local().flowController().incrementWindowSize(connection().connectionStream(), raise);
        }
        flush(ctx);
    }

    @Override
    public void sendPending() {
        if (draining || !ready) {
            return;
        }
        boolean wrote = false;
        io.netty.handler.codec.http2.Http2Connection.Endpoint<?> endpoint = connection().local();
        int max = connection.options().maxRequestsPerConnection();
        while (connection.hasPending() && inFlight.size() < connection.streams() && endpoint.canOpenStream()) {
            if (max > 0 && opened >= max) {
                drain();
                break;
            }
            int id = endpoint.incrementAndGetNextStreamId();
            if (id < 0) {
                drain(); // stream ids used up: a new connection
                break;
            }
            Http2Exchange e = connection.nextPending();
            // The id is published with the send, so an owner's cancel always names this stream (an id left
            // unused is allowed: it is implicitly closed).
            if (!e.send(System.nanoTime(), this, id)) {
                continue; // failed by its owner meanwhile
            }
            if (!connectTimesGiven) {
                connectTimesGiven = true;
                e.connected(connectStart, connectEnd);
            }
            inFlight.put(id, e);
            opened++;
            Http2Request r = e.request;
            boolean body = r.hasBody();
            encoder().writeHeaders(ctx, id, r.headers(), 0, !body, ctx.voidPromise());
            if (body) {
                encoder().writeData(ctx, id, r.body(), 0, true, ctx.voidPromise());
            }
            wrote = true;
        }
        if (wrote) {
            flush(ctx); // the handler's own flush: DATA waits in the flow controller until it runs
        }
    }

    /** No new streams here: they go to a new connection; this one closes when its last stream ends. */
    private void drain() {
        draining = true;
        connection.stopCarrying(this);
        connection.pump();
        closeIfIdle();
    }

    private void closeIfIdle() {
        if (draining && inFlight.isEmpty() && ctx.channel().isActive()) {
            ctx.close();
        }
    }

    @Override
    public void cancel(int streamId, Http2Exchange e) {
        if (inFlight.get(streamId) == e) {
            inFlight.remove(streamId);
            resetStream(ctx, streamId, Http2Error.CANCEL.code(), ctx.newPromise());
            flush(ctx);
            closeIfIdle();
        }
    }

    /**
     * Whether {@code e}, in flight on stream {@code id} here, still waits for that stream's response. It does not
     * once its owner timed it out: the owner's cancel is queued behind this read, and the owner may have armed
     * the exchange again for its next request already (or it went out on another stream), which a late frame of
     * the old stream must not fill, complete or fail. Only this loop sends, so the answer holds for the read.
     */
    private boolean carries(Http2Exchange e, int id) {
        return e.state() == Http2Exchange.SENT && e.streamId == id && e.carrier == this;
    }

    /** The exchange waiting for stream {@code id}'s response, or null (none, or one its owner gave up on). */
    Http2Exchange carried(int id, boolean streamEnds) {
        Http2Exchange e = inFlight.get(id);
        if (e == null || carries(e, id)) {
            return e;
        }
        if (streamEnds) {
            inFlight.remove(id); // over on both sides: the owner's cancel has nothing left to reset
            afterRead = true;
        }
        return null;
    }

    @Override
    public void frame(boolean inbound, int streamId, int type, int payloadLength) {
        if (streamId == 0 || type == Http2FrameCounter.DATA && inbound) {
            return; // inbound DATA is counted as it is decoded, padding included
        }
        Http2Exchange e = carried(streamId, false);
        if (e == null) {
            return;
        }
        if (!inbound) {
            if (type == Http2FrameCounter.HEADERS || type == Http2FrameCounter.CONTINUATION
                    || type == Http2FrameCounter.DATA) {
                e.sentBytes += payloadLength;
            }
        } else if (type == Http2FrameCounter.HEADERS || type == Http2FrameCounter.CONTINUATION) {
            e.h2.headerBlockBytes(payloadLength);
        }
    }

    void finish(int streamId, Http2Exchange e) {
        inFlight.remove(streamId);
        afterRead = true;
        if (e.h2.complete()) {
            e.succeedInRead(System.nanoTime());
        } else {
            e.failSent(new Http2ProtocolException("HTTP/2 stream " + streamId + " ended without a response status",
                    null));
        }
    }

    void goAway(int lastStreamId, long errorCode) {
        goAwayCode = errorCode;
        List<Integer> unprocessed = new ArrayList<>();
        for (IntObjectMap.PrimitiveEntry<Http2Exchange> en : inFlight.entries()) {
            if (en.key() > lastStreamId) {
                unprocessed.add(en.key());
            }
        }
        for (int id : unprocessed) {
            Http2Exchange e = inFlight.remove(id);
            if (!carries(e, id)) {
                continue;
            }
            if (!e.retried() && e.unsend()) {
                e.retrying();
                connection.retry(e);
            } else {
                e.failSent(new GoAwayException("GOAWAY from the server (" + StreamResetException.codeName(errorCode)
                        + ", last stream " + lastStreamId + "): stream " + id + " was not processed, and it was "
                        + "already sent once more on a new connection"));
            }
        }
        afterRead = true;
        drain();
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        super.channelReadComplete(ctx);
        if (afterRead) {
            // Streams ended in this read are closed in the codec only now: new ones fit under the limit again.
            afterRead = false;
            connection.queue().signal();
            sendPending();
            closeIfIdle();
        }
    }

    @Override
    protected void onConnectionError(ChannelHandlerContext ctx, boolean outbound, Throwable t,
                                     Http2Exception http2Ex) {
        if (cause == null) {
            cause = new Http2ProtocolException("HTTP/2 connection error: " + t.getMessage(), t);
        }
        super.onConnectionError(ctx, outbound, t, http2Ex);
    }

    @Override
    protected void onStreamError(ChannelHandlerContext ctx, boolean outbound, Throwable t,
                                 Http2Exception.StreamException se) {
        Http2Exchange e = inFlight.remove(se.streamId());
        if (e != null && carries(e, se.streamId())) {
            e.failSent(new Http2ProtocolException("HTTP/2 stream " + se.streamId() + " error: " + t.getMessage(), t));
            afterRead = true;
        }
        super.onStreamError(ctx, outbound, t, se);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable t) throws Exception {
        if (t instanceof Http2Exception || t.getCause() instanceof Http2Exception) {
            super.exceptionCaught(ctx, t);
            return;
        }
        if (cause == null) {
            cause = Failures.io(t);
        }
        ctx.close();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof IdleStateEvent idle && idle.state() == IdleState.READER_IDLE) {
            keepAlive(idle.isFirst());
            return;
        }
        super.userEventTriggered(ctx, evt);
    }

    /**
     * Nothing read for a PING interval: a PING asks for a frame (and is activity to servers and devices that count
     * any frame, e.g. HAProxy's timeout client; not nginx's keepalive_timeout); nothing read for another interval,
     * its ACK included: the connection is dead, and its streams fail now instead of at their response timeout.
     * Before SETTINGS the connect timeout decides.
     */
    private void keepAlive(boolean first) {
        if (!ready || !ctx.channel().isActive()) {
            return;
        }
        if (first) {
            encoder().writePing(ctx, false, ++pingsSent, ctx.newPromise());
            flush(ctx);
            return;
        }
        if (cause == null) {
            int interval = connection.options().pingIntervalMillis();
            cause = new PingTimeoutException("No frame from the server at " + connection.remote().getHostString() + ':'
                    + connection.remote().getPort() + " for " + 2 * interval + " ms, not even the answer to a PING sent "
                    + interval + " ms ago (stampede.h2.ping_ms " + interval + "): the connection was closed as"
                    + " dead");
        }
        ctx.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        try {
            super.channelInactive(ctx);
        } finally {
            closed(ctx.channel());
        }
    }

    private void closed(Channel ch) {
        connection.queue().signal(); // streams that ended in a read cut short by the close
        IOException why = cause;
        if (why == null) {
            why = goAwayCode > 0
                    ? new GoAwayException("The server closed the connection after GOAWAY ("
                    + StreamResetException.codeName(goAwayCode) + ") before the response was complete")
                    : Failures.closedByServer(ready ? "" : "before its HTTP/2 SETTINGS");
        }
        for (IntObjectMap.PrimitiveEntry<Http2Exchange> en : inFlight.entries()) {
            if (carries(en.value(), en.key())) {
                en.value().failSent(why);
            }
        }
        inFlight.clear();
        connection.sessionClosed(ch, ready, this, why);
    }

    /** The server's first SETTINGS: the connect is complete, and streams may open. */
    void settingsReceived(Channel ch) {
        if (ready) {
            return;
        }
        ready = true;
        connectEnd = System.nanoTime();
        connection.sessionReady(ch, this);
    }

    /** The server reset stream {@code streamId} (RST_STREAM): that stream fails, the others go on. */
    void streamReset(int streamId, long errorCode) {
        Http2Exchange e = carried(streamId, true);
        if (e != null) {
            inFlight.remove(streamId);
            e.failSent(new StreamResetException(streamId, errorCode));
            afterRead = true;
        }
    }
}
