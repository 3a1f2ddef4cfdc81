/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.http2;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http2.AbstractHttp2ConnectionHandlerBuilder;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2ConnectionDecoder;
import io.netty.handler.codec.http2.Http2ConnectionEncoder;
import io.netty.handler.codec.http2.Http2ConnectionHandler;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2FrameAdapter;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Settings;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A small h2c server for the engine's protocol tests, answering by path: {@code /} 200 "hello", {@code /echo} the
 * request body's length, {@code /reset} RST_STREAM REFUSED_STREAM, {@code /never} nothing, {@code /slow} after 30 ms.
 * It can cap concurrent streams in its SETTINGS and send GOAWAY (last stream id = the stream that triggers it) at
 * the first request of every connection. It counts connections, streams, PINGs and the most streams active at once,
 * and stops answering PINGs while {@link #ignorePings} is set (a peer that is gone but whose socket stays open).
 */
public final class Http2TestServer implements AutoCloseable {
    public final AtomicInteger connections = new AtomicInteger();
    public final AtomicInteger streams = new AtomicInteger();
    public final AtomicInteger maxActive = new AtomicInteger();
    public final AtomicInteger pings = new AtomicInteger();
    public volatile boolean ignorePings;
    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final Channel server;
    private final long maxConcurrentStreams;
    private final boolean goAwayAtFirst;

    public Http2TestServer(long maxConcurrentStreams, boolean goAwayAtFirst) throws InterruptedException {
        this.maxConcurrentStreams = maxConcurrentStreams;
        this.goAwayAtFirst = goAwayAtFirst;
        server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        connections.incrementAndGet();
                        ch.pipeline().addLast(new Builder().build());
                    }
                }).bind("127.0.0.1", 0).sync().channel();
    }

    public InetSocketAddress address() {
        return (InetSocketAddress) server.localAddress();
    }

    @Override
    public void close() {
        server.close().syncUninterruptibly();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    private final class Builder extends AbstractHttp2ConnectionHandlerBuilder<Handler, Builder> {
        Builder() {
            server(true);
            autoAckPingFrame(false);
            Http2Settings s = Http2Settings.defaultSettings();
            if (maxConcurrentStreams > 0) {
                s.maxConcurrentStreams(maxConcurrentStreams);
            }
            initialSettings(s);
        }

        @Override
        public Handler build() {
            return super.build();
        }

        @Override
        protected Handler build(Http2ConnectionDecoder decoder, Http2ConnectionEncoder encoder, Http2Settings s) {
            Handler h = new Handler(decoder, encoder, s);
            frameListener(h.frames);
            return h;
        }
    }

    private final class Handler extends Http2ConnectionHandler {
        private final Frames frames = new Frames();
        private int active;
        private int seen;
        private final java.util.Map<Integer, Integer> bodies = new java.util.HashMap<>();
        private final java.util.Map<Integer, String> paths = new java.util.HashMap<>();

        Handler(Http2ConnectionDecoder decoder, Http2ConnectionEncoder encoder, Http2Settings s) {
            super(decoder, encoder, s);
        }

        private void respond(ChannelHandlerContext ctx, int id, int status, String body) {
            active--;
            Http2Headers h = new DefaultHttp2Headers().status(Integer.toString(status))
                    .set("content-type", "text/plain").setInt("content-length", body.length());
            encoder().writeHeaders(ctx, id, h, 0, false, ctx.newPromise());
            encoder().writeData(ctx, id, Unpooled.copiedBuffer(body, StandardCharsets.US_ASCII), 0, true,
                    ctx.newPromise());
            flush(ctx);
        }

        private void request(ChannelHandlerContext ctx, int id) {
            streams.incrementAndGet();
            active++;
            maxActive.accumulateAndGet(active, Math::max);
            seen++;
            String path = paths.remove(id);
            if (goAwayAtFirst && seen == 1) {
                goAway(ctx, id, Http2Error.NO_ERROR.code(), Unpooled.EMPTY_BUFFER, ctx.newPromise());
            } else if (goAwayAtFirst) {
                return; // not processed: above the GOAWAY's last stream id
            }
            switch (path) {
                case "/echo" -> respond(ctx, id, 200, "received " + bodies.getOrDefault(id, 0));
                case "/reset" -> {
                    active--;
                    resetStream(ctx, id, Http2Error.REFUSED_STREAM.code(), ctx.newPromise());
                    flush(ctx);
                }
                case "/never" -> { }
                case "/work" -> { // longer on a request than a test's thread on a sample: responses come one by one
                    long until = System.nanoTime() + TimeUnit.MICROSECONDS.toNanos(5);
                    while (System.nanoTime() - until < 0) {
                        Thread.onSpinWait();
                    }
                    respond(ctx, id, 200, "hello");
                }
                case "/slow" -> ctx.executor().schedule(() -> respond(ctx, id, 200, "slow"), 30,
                        TimeUnit.MILLISECONDS);
                default -> respond(ctx, id, 200, "hello");
            }
        }

        private final class Frames extends Http2FrameAdapter {
            @Override
            public void onHeadersRead(ChannelHandlerContext ctx, int id, Http2Headers headers, int padding,
                                      boolean endOfStream) {
                paths.put(id, headers.path().toString());
                if (endOfStream) {
                    request(ctx, id);
                }
            }

            @Override
            public void onHeadersRead(ChannelHandlerContext ctx, int id, Http2Headers headers, int dependency,
                                      short weight, boolean exclusive, int padding, boolean endOfStream) {
                onHeadersRead(ctx, id, headers, padding, endOfStream);
            }

            @Override
            public int onDataRead(ChannelHandlerContext ctx, int id, ByteBuf data, int padding, boolean end) {
                int n = data.readableBytes();
                bodies.merge(id, n, Integer::sum);
                if (end) {
                    request(ctx, id);
                }
                return n + padding;
            }

            @Override
            public void onPingRead(ChannelHandlerContext ctx, long data) {
                pings.incrementAndGet();
                if (!ignorePings) {
                    encoder().writePing(ctx, true, data, ctx.newPromise());
                    flush(ctx);
                }
            }
        }
    }
}
