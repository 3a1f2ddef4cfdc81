/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.http2;

import io.stampede.engine.CompletionQueue;
import io.stampede.engine.tls.Connector;
import io.stampede.engine.Engine;
import io.stampede.engine.Failures;
import io.stampede.engine.GoAwayException;
import io.stampede.engine.Http2ProtocolException;
import io.stampede.engine.Outbox;
import io.stampede.engine.PingTimeoutException;
import io.stampede.engine.StreamResetException;
import io.stampede.engine.tls.Tls;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http2.AbstractHttp2ConnectionHandlerBuilder;
import io.netty.handler.codec.http2.DefaultHttp2Connection;
import io.netty.handler.codec.http2.DefaultHttp2ConnectionDecoder;
import io.netty.handler.codec.http2.DefaultHttp2ConnectionEncoder;
import io.netty.handler.codec.http2.DefaultHttp2FrameReader;
import io.netty.handler.codec.http2.DefaultHttp2FrameWriter;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2ConnectionDecoder;
import io.netty.handler.codec.http2.Http2ConnectionEncoder;
import io.netty.handler.codec.http2.Http2ConnectionHandler;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2FrameAdapter;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2PromisedRequestVerifier;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.timeout.IdleState;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.collection.IntObjectHashMap;
import io.netty.util.collection.IntObjectMap;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * One HTTP/2 connection slot: a TCP connection (TLS with ALPN for h2, cleartext with prior knowledge for h2c) that
 * carries up to {@code streams} requests at once, each on its own stream, further capped by the server's
 * SETTINGS_MAX_CONCURRENT_STREAMS. Its {@link Http2Exchange exchanges} are armed by the owning thread; everything
 * else runs on the one event loop the slot is pinned to, across reconnects.
 *
 * <p>Connection life: the connect counts until the server's first SETTINGS frame (so an h2c request to a server
 * that does not speak HTTP/2 fails in the connect, with a message saying so), and its time goes to the first stream
 * sent on it. A GOAWAY stops new streams on that connection: streams at or below the last stream id finish there,
 * later ones go once more on a new connection, then fail. So does reaching {@link Http2Options#maxRequestsPerConnection}
 * (without the retry). A RST_STREAM fails its stream only. With {@link Http2Options#pingIntervalMillis} a silent
 * connection is PINGed, and closed as dead when the PING goes unanswered (its streams fail). If the server picks
 * HTTP/1.1 in ALPN, the connection carries one HTTP/1.1 exchange at a time instead.
 */
public final class Http2Connection implements Connector.Listener {
    /** What new streams go to: an HTTP/2 session or, after an ALPN fallback, one HTTP/1.1 exchange at a time. */
    interface Carrier {
        void sendPending();

        void cancel(int streamId, Http2Exchange e);
    }

    private final Engine engine;
    private final EventLoop loop;
    private final InetSocketAddress remote;
    private final InetSocketAddress local;
    private final int connectTimeoutMillis;
    private final int streams;
    private final Tls tls;
    private final Http2Options options;
    private final Http2Exchange[] exchanges;
    /** The owner's completions: streams ended in a read are added quietly and the owner woken once at its end. */
    private final CompletionQueue queue;
    /**
     * Exchanges the owner armed, on their way to the event loop: one drain takes all that arrived before it runs,
     * then writes them with one flush, so a busy loop sends a batch of streams with one task and one write.
     */
    private final Outbox outbox;
    /** Owner only: something was put in the outbox since the last {@link #release}. */
    private boolean holding;

    // event loop state
    /** Armed exchanges waiting for a stream. */
    private final ArrayDeque<Http2Exchange> pending = new ArrayDeque<>();
    /** Channels open or opening, draining ones included, closed with the slot. */
    private final List<Channel> channels = new ArrayList<>(2);
    /** Where new streams go; null while connecting or after the last one began draining. */
    private Carrier current;
    private Channel connecting;
    private long connectStartNanos;
    private volatile boolean closed;

    /**
     * @param streams requests in flight at once on this connection (at most; the server may allow fewer)
     * @param tls null for h2c (prior knowledge); else h2 with ALPN, HTTP/1.1 if the server does not offer h2
     */
    public Http2Connection(Engine engine, EventLoop loop, CompletionQueue queue, InetSocketAddress remote,
                           InetSocketAddress local, int connectTimeoutMillis, int streams, Tls tls,
                           Http2Options options) {
        this.engine = engine;
        this.loop = loop;
        this.remote = remote;
        this.local = local;
        this.connectTimeoutMillis = connectTimeoutMillis;
        this.streams = streams;
        this.tls = tls;
        this.options = options;
        this.queue = queue;
        outbox = new Outbox(loop, this::pump);
        exchanges = new Http2Exchange[streams];
        for (int i = 0; i < streams; i++) {
            exchanges[i] = new Http2Exchange(this, queue);
        }
    }

    /** The connection's stream slots. */
    public Http2Exchange[] exchanges() {
        return exchanges;
    }

    public InetSocketAddress remote() {
        return remote;
    }

    /** False once closed or once the engine it runs on stopped: replace it. */
    public boolean usable() {
        return !closed && !loop.isShuttingDown();
    }

    /** Owner: {@code e} was armed; it waits in the outbox for {@link #release}. */
    void hold(Http2Exchange e) {
        outbox.put(e);
        holding = true;
    }

    /**
     * Owner: what waits in the outbox goes to the event loop, with whatever is armed before the loop's drain runs. An
     * engine loop's owner releases each arm at once (holding them until a batch filled left nginx idle and cost more
     * per request); a thread on its own loop holds them while half of its streams are in flight ({@link Http2Group}).
     */
    void release() {
        if (!holding) {
            return; // a group releases all its connections at once: those given nothing schedule no empty drain
        }
        holding = false;
        if (!outbox.dispatch()) {
            // The engine stopped: nothing will drain the outbox, so the owner fails what waits there.
            outbox.takeAll(n -> ((Http2Exchange) n).fail(Failures.engineStopped()));
        }
    }

    /** An armed exchange, taken from the outbox (the batch is sent by {@link #pump} after the drain). */
    void accept(Http2Exchange e) {
        if (e.state() != Http2Exchange.ARMED) {
            return; // failed by its owner meanwhile
        }
        if (closed) {
            e.fail(Failures.threadFinished());
        } else {
            pending.add(e);
        }
    }

    private void pump() {
        if (pending.isEmpty()) {
            return;
        }
        if (current != null) {
            current.sendPending();
        } else if (connecting == null) {
            connect();
        }
    }

    private void failPending(IOException why) {
        Http2Exchange e;
        while ((e = pending.poll()) != null) {
            e.fail(why);
        }
    }

    private void connect() {
        connectStartNanos = System.nanoTime();
        try {
            Connector.open(engine, loop, remote, local, connectTimeoutMillis, tls, true, null, this::notTls, this);
        } catch (RuntimeException ex) {
            failPending(Failures.io(ex));
        }
    }

    @Override
    public void connectStarted(Channel ch) {
        connecting = ch;
        channels.add(ch);
        // The connect timeout covers TCP, TLS and the server's SETTINGS: a server that never answers in HTTP/2 fails.
        ScheduledFuture<?> timeout = loop.schedule(() -> {
            if (connecting == ch) {
                connecting = null;
                failPending(Failures.connectTimeout(remote));
                ch.close();
            }
        }, connectTimeoutMillis, TimeUnit.MILLISECONDS);
        ch.closeFuture().addListener(x -> {
            timeout.cancel(false);
            channels.remove(ch);
        });
    }

    @Override
    public void connectFailed(Channel ch, IOException why) {
        if (ch != connecting) {
            ch.close();
            return;
        }
        connecting = null;
        failPending(why);
    }

    @Override
    public void connected(Channel ch, SslHandler ssl) {
        if (ch != connecting || closed) {
            ch.close();
            return;
        }
        if (ssl == null || ApplicationProtocolNames.HTTP_2.equals(ssl.applicationProtocol())) {
            startHttp2(ch);
        } else {
            // The server did not choose h2 (no ALPN, or http/1.1): HTTP/1.1 on this connection, noted per result.
            Http1Carrier c = new Http1Carrier(ch, connectStartNanos, System.nanoTime());
            ch.pipeline().addLast(c);
            connecting = null;
            current = c;
            c.sendPending();
        }
    }

    private void startHttp2(Channel ch) {
        Session s = new SessionBuilder(connectStartNanos).build();
        if (options.pingIntervalMillis() > 0) {
            // Reads only: what we send proves nothing about the server.
            ch.pipeline().addLast(new IdleStateHandler(options.pingIntervalMillis(), 0, 0, TimeUnit.MILLISECONDS));
        }
        ch.pipeline().addLast(new Http2FrameCounter(s), s);
    }

    /** Owner (response timeout): the stream is reset (HTTP/1.1: the connection closed); the others go on. */
    void cancel(Http2Exchange e) {
        Object on = e.carrier;
        int id = e.streamId;
        if (on instanceof Carrier c) {
            loop.execute(() -> c.cancel(id, e));
        }
    }

    /** Owner: closes for good; requests waiting fail, streams in flight fail as their channels close. */
    public void close() {
        closed = true;
        try {
            loop.execute(() -> {
                outbox.takeAll(n -> ((Http2Exchange) n).fail(Failures.threadFinished())); // armed, not dispatched
                failPending(Failures.threadFinished());
                for (Channel ch : channels.toArray(new Channel[0])) {
                    ch.close();
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException ignored) {
            // the engine stopped: its channels are closed already
        }
    }

    /** A request the server never saw because it does not speak HTTP/2 on this port (or not without TLS). */
    private IOException notHttp2(IOException why) {
        String how = tls == null
                ? "for h2c the port must accept HTTP/2 without TLS (nginx: 'listen PORT http2;' without ssl); use h2 "
                + "for a TLS port, or http/1.1"
                : "the server chose h2 in ALPN but then did not speak it";
        return new Http2ProtocolException("The server at " + remote.getHostString() + ':' + remote.getPort()
                + " did not answer in HTTP/2 (" + why.getMessage() + "); " + how, why);
    }

    /**
     * A TLS handshake the server answered in cleartext: h2 pointed at a cleartext port, named as the protocol mismatch
     * it is (the doctor's fix: match the protocol to the port). The cause is left out on purpose: Failures names a
     * failure by the SSLException in its causes.
     */
    private IOException notTls(String what) {
        return new Http2ProtocolException(what + "; h2 needs a TLS port offering h2 in ALPN (nginx: 'listen PORT ssl"
                + " http2;'); use h2c for a cleartext HTTP/2 port, or http/1.1", null);
    }

    private final class SessionBuilder extends AbstractHttp2ConnectionHandlerBuilder<Session, SessionBuilder> {
        private final long connectStart;

        SessionBuilder(long connectStart) {
            this.connectStart = connectStart;
            // A header table of 0: the server may not index response fields for us, so decoding a response head
            // adds nothing to a table that every next head would evict again (nginx re-indexes its fields on
            // every response), and a head equal to the last one need not be decoded again.
            initialSettings(Http2Settings.defaultSettings().pushEnabled(false).headerTableSize(0)
                    .initialWindowSize(options.streamWindow()));
            // Built as the builder would for a client, but for the headers decoder; the builder's limit on control
            // frames queued for a server that does not read is added back (ControlFrameLimit).
            var connection = new DefaultHttp2Connection(false);
            var reader = new DefaultHttp2FrameReader(new RepeatedHeaderBlockDecoder(Http2CodecUtil.DEFAULT_HEADER_LIST_SIZE));
            var encoder = new ControlFrameLimit(new DefaultHttp2ConnectionEncoder(connection,
                    new DefaultHttp2FrameWriter()), ControlFrameLimit.DEFAULT_MAX);
            codec(new DefaultHttp2ConnectionDecoder(connection, encoder, reader,
                    Http2PromisedRequestVerifier.ALWAYS_VERIFY, true, true, false, false), encoder);
            gracefulShutdownTimeoutMillis(1000);
        }

        @Override
        public Session build() {
            return super.build();
        }

        @Override
        protected Session build(Http2ConnectionDecoder decoder, Http2ConnectionEncoder encoder,
                                Http2Settings initialSettings) {
            Session s = new Session(decoder, encoder, initialSettings, connectStart);
            frameListener(s.frames);
            return s;
        }
    }

    /** One HTTP/2 connection: its streams by id, the GOAWAY and reset handling. */
    private final class Session extends Http2ConnectionHandler implements Carrier, Http2FrameCounter.Listener {
        private final IntObjectMap<Http2Exchange> inFlight = new IntObjectHashMap<>();
        private final Frames frames = new Frames();
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

        Session(Http2ConnectionDecoder decoder, Http2ConnectionEncoder encoder, Http2Settings settings,
                long connectStart) {
            super(decoder, encoder, settings);
            this.connectStart = connectStart;
        }

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) throws Exception {
            this.ctx = ctx;
            super.handlerAdded(ctx);
            // HTTP/2's default windows are 64 KiB; SETTINGS raises the streams', a WINDOW_UPDATE the connection's.
            int raise = options.connectionWindow() - 65_535;
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
            int max = options.maxRequestsPerConnection();
            while (!pending.isEmpty() && inFlight.size() < streams && endpoint.canOpenStream()) {
                if (max > 0 && opened >= max) {
                    drain();
                    break;
                }
                int id = endpoint.incrementAndGetNextStreamId();
                if (id < 0) {
                    drain(); // stream ids used up: a new connection
                    break;
                }
                Http2Exchange e = pending.poll();
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
            if (current == this) {
                current = null;
            }
            pump();
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
        private Http2Exchange carried(int id, boolean streamEnds) {
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

        private void finish(int streamId, Http2Exchange e) {
            inFlight.remove(streamId);
            afterRead = true;
            if (e.h2.complete()) {
                e.succeedInRead(System.nanoTime());
            } else {
                e.failSent(new Http2ProtocolException("HTTP/2 stream " + streamId + " ended without a response status",
                        null));
            }
        }

        private void goAway(int lastStreamId, long errorCode) {
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
                    pending.addFirst(e);
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
                queue.signal();
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
                int interval = options.pingIntervalMillis();
                cause = new PingTimeoutException("No frame from the server at " + remote.getHostString() + ':'
                        + remote.getPort() + " for " + 2 * interval + " ms, not even the answer to a PING sent "
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
            queue.signal(); // streams that ended in a read cut short by the close
            IOException why = cause;
            if (why == null) {
                why = goAwayCode > 0
                        ? new GoAwayException("The server closed the connection after GOAWAY ("
                        + StreamResetException.codeName(goAwayCode) + ") before the response was complete")
                        : Failures.closedByServer(ready ? "" : "before its HTTP/2 SETTINGS");
            }
            if (!ready && connecting == ch) {
                connecting = null;
                failPending(notHttp2(why));
            }
            for (IntObjectMap.PrimitiveEntry<Http2Exchange> en : inFlight.entries()) {
                if (carries(en.value(), en.key())) {
                    en.value().failSent(why);
                }
            }
            inFlight.clear();
            if (current == this) {
                // Closed under us while open for new streams: the requests waiting for it fail too, so that a
                // server that drops every connection costs one failed sample per request, not a reconnect loop.
                current = null;
                failPending(why);
            }
        }

        private final class Frames extends Http2FrameAdapter {
            @Override
            public void onSettingsRead(ChannelHandlerContext ctx, Http2Settings settings) {
                if (ready) {
                    return;
                }
                ready = true;
                connectEnd = System.nanoTime();
                if (connecting == ctx.channel()) {
                    connecting = null;
                }
                if (!closed) {
                    current = Session.this;
                    sendPending();
                }
            }

            @Override
            public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int padding,
                                      boolean endOfStream) {
                Http2Exchange e = carried(streamId, endOfStream);
                if (e == null) {
                    return;
                }
                e.byteReceived(System.nanoTime());
                e.h2.headers(headers);
                if (endOfStream) {
                    finish(streamId, e);
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
                Http2Exchange e = carried(streamId, endOfStream);
                if (e != null) {
                    e.h2.data(data, padding);
                    if (endOfStream) {
                        finish(streamId, e);
                    }
                }
                // Consumed at once: the window opens again as fast as the data comes.
                return data.readableBytes() + padding;
            }

            @Override
            public void onRstStreamRead(ChannelHandlerContext ctx, int streamId, long errorCode) {
                Http2Exchange e = carried(streamId, true);
                if (e != null) {
                    inFlight.remove(streamId);
                    e.failSent(new StreamResetException(streamId, errorCode));
                    afterRead = true;
                }
            }

            @Override
            public void onGoAwayRead(ChannelHandlerContext ctx, int lastStreamId, long errorCode, ByteBuf debugData) {
                goAway(lastStreamId, errorCode);
            }
        }
    }

    /** After an ALPN fallback: one HTTP/1.1 exchange at a time, framed as the HTTP/1.1 engine frames them. */
    private final class Http1Carrier extends ChannelInboundHandlerAdapter implements Carrier {
        private final Channel ch;
        private final long connectStart;
        private final long connectEnd;
        private boolean connectTimesGiven;
        private Http2Exchange inFlight;
        private IOException cause;

        Http1Carrier(Channel ch, long connectStart, long connectEnd) {
            this.ch = ch;
            this.connectStart = connectStart;
            this.connectEnd = connectEnd;
        }

        @Override
        public void sendPending() {
            while (inFlight == null && ch.isActive() && !pending.isEmpty()) {
                Http2Exchange e = pending.poll();
                if (!e.send(System.nanoTime(), this, 0)) {
                    continue;
                }
                if (!connectTimesGiven) {
                    connectTimesGiven = true;
                    e.connected(connectStart, connectEnd);
                }
                inFlight = e;
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

        /** Whether the exchange in flight still waits for this response: not once its owner timed it out. */
        private boolean carriesInFlight() {
            return inFlight.state() == Http2Exchange.SENT && inFlight.carrier == this;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf in = (ByteBuf) msg;
            try {
                Http2Exchange e = inFlight;
                if (e == null) {
                    ctx.close(); // bytes nobody asked for
                    return;
                }
                if (!carriesInFlight()) {
                    return; // timed out by its owner, whose cancel closes this connection
                }
                long now = System.nanoTime();
                e.byteReceived(now);
                if (e.h1.feed(in)) {
                    boolean keep = e.h1.reusable();
                    inFlight = null;
                    e.succeed(now);
                    if (keep) {
                        sendPending();
                    } else {
                        ctx.close();
                    }
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
            Http2Exchange e = inFlight;
            if (e != null && carriesInFlight()) {
                if (cause == null && e.h1.closeReceived()) {
                    e.succeed(System.nanoTime());
                } else {
                    e.failSent(cause != null ? cause : e.h1.closedEarly());
                }
            }
            inFlight = null;
            if (current == this) {
                current = null;
                pump(); // HTTP/1.1 closes connections as a matter of course: the next request reconnects
            }
        }
    }

    /** Whether this slot speaks TLS (h2 with ALPN) rather than cleartext (h2c by prior knowledge). */
    boolean secure() {
        return tls != null;
    }
}
