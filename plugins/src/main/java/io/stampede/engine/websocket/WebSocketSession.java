/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.websocket;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CorruptedWebSocketFrameException;
import io.netty.handler.codec.http.websocketx.PingWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PongWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketCloseStatus;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketFrameAggregator;
import io.netty.handler.codec.http.websocketx.WebSocketHandshakeException;
import io.netty.handler.codec.http.websocketx.extensions.compression.WebSocketClientCompressionHandler;
import io.netty.handler.ssl.NotSslRecordException;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import io.stampede.engine.tls.Connector;
import io.stampede.engine.Engine;
import io.stampede.engine.Failures;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * One WebSocket session (RFC 6455) on one of the engine's event loops, built from Netty's own codecs: the opening
 * handshake ({@link Upgrade}, on Netty's handshaker), the frame decoder and encoder it installs, fragments joined by
 * {@link WebSocketFrameAggregator} up to the size limit, permessage-deflate ({@link WebSocketClientCompressionHandler})
 * when offered; its connection opens through the engine's {@link Connector}, as every protocol's does. This class is
 * the last handler of the pipeline: it answers pings, sends our own, runs the close handshake, and hands each message
 * to the {@link WebSocketCall} waiting for it or to the session's {@link Inbox}.
 *
 * <p>Between messages a session holds no buffer and no timer (unless pings are asked for): its deadlines are the
 * JMeter thread's. Everything here runs on the session's loop except {@link #submit}, {@link #isOpen} and
 * {@link #closeAsync}.
 */
public final class WebSocketSession extends ChannelInboundHandlerAdapter {
    /** The largest handshake response read (a refusal's body included). */
    private static final int HANDSHAKE_BYTES = 65536;

    private final Engine engine;
    private final EventLoop loop;
    private final WebSocketOptions options;
    private final InetSocketAddress source;
    private final WebSocketCall call = new WebSocketCall(this);

    private Channel channel;
    /** Only during the opening handshake. */
    private Upgrade upgrade;
    private volatile boolean open;
    /** Why the last connection ended, reported at the next use until the session is opened again. */
    private volatile IOException ended;
    /** Whether a sample reported {@link #ended} already (a closure is reported once, never silently dropped). */
    private volatile boolean endReported;
    /** The generation of the call the loop is carrying out, -1 for none. */
    private int running = -1;
    /** The generation of the call waiting for a matching message, -1 for none. */
    private int waiting = -1;
    private boolean closing;
    /** Made at the first message nobody waited for. */
    private Inbox inbox;
    private long bytesIn;
    private long bytesOut;
    /** When the first byte of the message being read arrived; 0 between messages. */
    private long messageStart;
    private ScheduledFuture<?> pings;

    /** @param source the local address to connect from, null for the kernel's choice */
    public WebSocketSession(Engine engine, EventLoop loop, WebSocketOptions options, InetSocketAddress source) {
        this.engine = engine;
        this.loop = loop;
        this.options = options;
        this.source = source;
    }

    public WebSocketCall call() {
        return call;
    }

    public WebSocketOptions options() {
        return options;
    }

    /** Any thread: handshake done and not closed since. */
    public boolean isOpen() {
        return open;
    }

    /** Any thread: why the session last ended (closed by the server, a protocol error), or null. */
    public IOException ended() {
        return ended;
    }

    /**
     * Thread: why the session ended, if no sample reported it yet (the server closed it between two uses); it is
     * then taken as reported.
     */
    public IOException takeUnreportedEnd() {
        IOException e = ended;
        if (e == null || endReported) {
            return null;
        }
        endReported = true;
        return e;
    }

    /** Thread: hands the armed call to the loop, at once or at its intended time. */
    public void submit() {
        int gen = call.generation();
        long delay = call.intendedNanos - System.nanoTime();
        if (delay <= 0) {
            loop.execute(() -> run(gen));
        } else {
            loop.schedule(() -> run(gen), delay, TimeUnit.NANOSECONDS);
        }
    }

    /**
     * Any thread: ends the session without waiting for the server (a deadline passed, the thread ended): an open
     * session sends a close frame 1001 (going away) first.
     */
    public void closeAsync() {
        try {
            loop.execute(() -> {
                if (channel == null) {
                    return;
                }
                if (open) {
                    open = false;
                    closing = true;
                    stopPings();
                    channel.writeAndFlush(new CloseWebSocketFrame(WebSocketCloseStatus.ENDPOINT_UNAVAILABLE))
                            .addListener(ChannelFutureListener.CLOSE);
                } else {
                    // Our own close (a deadline passed): not a closure by the server to report at the next use.
                    closing = true;
                    channel.close();
                }
            });
        } catch (RejectedExecutionException stopped) {
            // The engine stopped (the test ended): its channels are closed already.
        }
    }

    private void run(int gen) {
        WebSocketCall c = call;
        if (!c.isArmed(gen)) {
            return;
        }
        running = gen;
        c.startNanos = System.nanoTime();
        c.inAtStart = bytesIn;
        c.outAtStart = bytesOut;
        c.sentNanos = 0;
        c.firstByteNanos = 0;
        switch (c.kind) {
            case OPEN -> connect(c, gen);
            case SEND, SEND_AND_WAIT -> send(c, gen);
            case WAIT -> waitFor(c, gen);
            case CLOSE -> close(c, gen);
            default -> throw new IllegalStateException(String.valueOf(c.kind));
        }
    }

    private void connect(WebSocketCall c, int gen) {
        if (open) {
            complete(c, gen);
            return;
        }
        ended = null;
        endReported = false;
        closing = false;
        messageStart = 0;
        channel = null;
        upgrade = new Upgrade(options, c.cookie);
        try {
            Connector.open(engine, loop, options.remote(), source, options.connectTimeoutMillis(), options.tls(), false,
                    new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            ch.pipeline().addLast(new WireCounter(WebSocketSession.this), new HttpClientCodec(),
                                    new HttpObjectAggregator(HANDSHAKE_BYTES));
                            if (options.compression()) {
                                ch.pipeline().addLast(new WebSocketClientCompressionHandler(
                                        options.maxMessageBytes()));
                            }
                            ch.pipeline().addLast(new WebSocketFrameAggregator(options.maxMessageBytes()),
                                    WebSocketSession.this);
                        }
                    }, WebSocketSession::notTls, new Opening(gen));
        } catch (RuntimeException e) {
            fail(gen, Failures.io(e));
        }
    }

    /** wss to a cleartext port: the class stays the TLS handler's, the message says what to change. */
    private static IOException notTls(String what) {
        return new NotSslRecordException(what + "; wss needs a TLS port (nginx: 'listen PORT ssl;'); use ws for a"
                + " cleartext port");
    }

    /** The connect of one open call (TLS included): then the upgrade request goes out. */
    private final class Opening implements Connector.Listener {
        private final int gen;

        Opening(int gen) {
            this.gen = gen;
        }

        @Override
        public void connectStarted(Channel ch) {
            channel = ch;
        }

        @Override
        public void connected(Channel ch, SslHandler ssl) {
            if (ch != channel) {
                return;
            }
            if (!call.isArmed(gen)) {
                ch.close();
                return;
            }
            upgrade.send(ch).addListener(h -> {
                if (!h.isSuccess()) {
                    fail(gen, Failures.io(h.cause()));
                }
            });
        }

        @Override
        public void connectFailed(Channel ch, IOException why) {
            if (ch == channel) {
                fail(gen, why);
            }
        }
    }

    private void send(WebSocketCall c, int gen) {
        if (!open) {
            fail(gen, notOpen());
            return;
        }
        ByteBuf data = Unpooled.wrappedBuffer(c.payload);
        WebSocketFrame frame = c.text ? new TextWebSocketFrame(data) : new BinaryWebSocketFrame(data);
        if (c.kind == WebSocketCall.Kind.SEND_AND_WAIT) {
            waiting = gen;
        }
        channel.writeAndFlush(frame).addListener(w -> {
            if (!w.isSuccess()) {
                fail(gen, Failures.io(w.cause()));
            } else if (call.isArmed(gen)) {
                call.sentNanos = System.nanoTime();
                if (call.kind == WebSocketCall.Kind.SEND) {
                    complete(call, gen);
                }
            }
        });
    }

    private IOException notOpen() {
        IOException e = ended;
        return e != null ? e : new WebSocketClosedException(WebSocketClosedException.ABNORMAL, "(session not open)");
    }

    private void waitFor(WebSocketCall c, int gen) {
        WebSocketMessage kept = inbox == null ? null : inbox.take(c.match);
        if (kept != null) {
            c.reply = kept;
            c.firstByteNanos = c.startNanos; // it was there already
            complete(c, gen);
            return;
        }
        if (!open) {
            fail(gen, notOpen());
            return;
        }
        waiting = gen;
    }

    private void close(WebSocketCall c, int gen) {
        if (!open) {
            IOException e = ended;
            if (e != null) {
                fail(gen, e);
            } else {
                complete(c, gen);
            }
            return;
        }
        open = false;
        closing = true;
        stopPings();
        channel.writeAndFlush(new CloseWebSocketFrame(c.closeCode, c.closeReason)).addListener(w -> {
            if (call.isArmed(gen)) {
                call.sentNanos = System.nanoTime();
            }
        });
    }

    /**
     * Added to each connection the session opens, one at a time: events of an earlier connection that arrive late
     * are dropped, so they never touch the current one.
     */
    @Override
    public boolean isSharable() {
        return true;
    }

    /**
     * The TCP connect is done (for wss the TLS handshake starts now): the handshake timeout counts from here, so it
     * covers the TLS handshake and the upgrade.
     */
    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        // channel is still null when the connect completed at once, inside Connector.open
        if ((channel == null || ctx.channel() == channel) && running >= 0 && call.isArmed(running)) {
            call.connectedNanos = System.nanoTime();
        }
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (ctx.channel() != channel) {
            ReferenceCountUtil.release(msg);
            return;
        }
        try {
            if (msg instanceof FullHttpResponse r) {
                handshakeResponse(r);
            } else if (msg instanceof WebSocketFrame f) {
                frame(ctx, f);
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    private void handshakeResponse(FullHttpResponse r) {
        int gen = running;
        long first = messageStart;
        messageStart = 0;
        WebSocketCall c = call;
        if (upgrade == null || c.kind != WebSocketCall.Kind.OPEN || !c.isArmed(gen)) {
            channel.close();
            return;
        }
        IOException failed = upgrade.finish(channel, r, c, first);
        if (failed != null) {
            failAndClose(gen, failed);
            return;
        }
        upgrade = null;
        open = true;
        if (options.pingMillis() > 0) {
            pings = loop.scheduleAtFixedRate(this::ping, options.pingMillis(), options.pingMillis(),
                    TimeUnit.MILLISECONDS);
        }
        complete(c, gen);
    }

    private void ping() {
        if (open) {
            channel.writeAndFlush(new PingWebSocketFrame());
        }
    }

    private void stopPings() {
        if (pings != null) {
            pings.cancel(false);
            pings = null;
        }
    }

    private void frame(ChannelHandlerContext ctx, WebSocketFrame f) {
        if (f instanceof PingWebSocketFrame) {
            ctx.writeAndFlush(new PongWebSocketFrame(f.content().retain()));
            messageStart = 0;
        } else if (f instanceof PongWebSocketFrame) {
            messageStart = 0;
        } else if (f instanceof CloseWebSocketFrame close) {
            closeFrame(ctx, close);
        } else {
            long first = messageStart != 0 ? messageStart : System.nanoTime();
            messageStart = 0;
            deliver(new WebSocketMessage(f instanceof TextWebSocketFrame, ByteBufUtil.getBytes(f.content()), first));
        }
    }

    private void closeFrame(ChannelHandlerContext ctx, CloseWebSocketFrame close) {
        int code = close.statusCode() < 0 ? WebSocketCloseStatus.EMPTY.code() : close.statusCode();
        String reason = close.reasonText();
        if (closing) {
            WebSocketCall c = call;
            if (c.kind == WebSocketCall.Kind.CLOSE && c.isArmed(running)) {
                c.status = code;
                c.statusText = reason;
                complete(c, running);
            }
            ctx.close();
            return;
        }
        // The server's close: echo its code (RFC 6455 5.5.1), then the server ends the TCP connection.
        open = false;
        stopPings();
        IOException why = new WebSocketClosedException(code, reason);
        ended = why;
        ctx.writeAndFlush(new CloseWebSocketFrame(code, null)).addListener(x -> ctx.close());
        failRunning(why);
    }

    private void deliver(WebSocketMessage m) {
        WebSocketCall c = call;
        if (waiting >= 0 && c.isArmed(waiting) && c.sentNanos != 0 | c.kind == WebSocketCall.Kind.WAIT
                && (c.match == null || c.match.test(m))) {
            int gen = waiting;
            waiting = -1;
            c.reply = m;
            c.firstByteNanos = m.firstByteNanos();
            complete(c, gen);
            return;
        }
        if (inbox == null) {
            inbox = new Inbox(options.inboxLimit());
        }
        inbox.add(m);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (ctx.channel() != channel) {
            return;
        }
        open = false;
        stopPings();
        WebSocketCall c = call;
        if (closing) {
            closing = false;
            if (c.kind == WebSocketCall.Kind.CLOSE && c.isArmed(running)) {
                // The server ended the connection without its close frame: the session is closed all the same.
                c.status = WebSocketClosedException.ABNORMAL;
                complete(c, running);
            }
            return;
        }
        IOException why = ended;
        if (why == null) {
            why = upgrade != null
                    ? new WebSocketClosedException(WebSocketClosedException.ABNORMAL, "(during the handshake)")
                    : new WebSocketClosedException(WebSocketClosedException.ABNORMAL, "(connection lost)");
            ended = why;
        }
        upgrade = null;
        failRunning(why);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (ctx.channel() != channel) {
            ctx.close();
            return;
        }
        IOException why;
        if (cause instanceof TooLongFrameException || cause.getCause() instanceof TooLongFrameException) {
            why = new WebSocketProtocolException("Message larger than the limit of " + options.maxMessageBytes()
                    + " bytes");
            if (open) {
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
        open = false;
        if (ended == null) {
            ended = why;
        }
        failRunning(why);
        ctx.close();
    }

    private void failRunning(IOException why) {
        if (running >= 0 && call.isArmed(running)) {
            fail(running, why);
        }
    }

    private void failAndClose(int gen, IOException why) {
        upgrade = null;
        ended = why;
        fail(gen, why);
        channel.close();
    }

    private void fail(int gen, IOException why) {
        WebSocketCall c = call;
        if (c.isArmed(gen)) {
            if (why == ended) {
                endReported = true;
            }
            c.failure = why;
            complete(c, gen);
        }
    }

    private void complete(WebSocketCall c, int gen) {
        if (!c.claim(gen)) {
            return;
        }
        if (running == gen) {
            running = -1;
        }
        if (waiting == gen) {
            waiting = -1;
        }
        c.doneNanos = System.nanoTime();
        c.bytesIn = bytesIn - c.inAtStart;
        c.bytesOut = bytesOut - c.outAtStart;
        if (inbox != null) {
            c.unsolicited = inbox.unsolicited();
            c.dropped = inbox.dropped();
            if (c.keepUnsolicited) {
                c.unsolicitedKept = inbox.drain();
            }
        }
        c.publish();
    }

    void read(int n) {
        bytesIn += n;
        if (messageStart == 0) {
            messageStart = System.nanoTime();
        }
    }

    void written(int n) {
        bytesOut += n;
    }

    /** For messages: a text payload's bytes. */
    public static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
