/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.builtintarget;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.timeout.IdleStateHandler;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The built-in target: a small HTTP/1.1 server that answers every request with the same short static body,
 * the stand-in for nginx serving {@code test.txt} when the user has no server at hand.
 */
public final class TargetServer implements AutoCloseable {
    /** Netty's default marks, named: reading a connection stops above 64 KiB of replies not yet written. */
    static final WriteBufferWaterMark WRITE_MARKS = new WriteBufferWaterMark(32 * 1024, 64 * 1024);

    private final EventLoopGroup group;
    private final Channel serverChannel;
    private final InetSocketAddress address;
    private final String transport;
    private final ConnectionLimit limit;
    private final AtomicInteger paused;

    private TargetServer(EventLoopGroup group, Channel serverChannel, String transport, ConnectionLimit limit,
                         AtomicInteger paused) {
        this.group = group;
        this.serverChannel = serverChannel;
        this.address = (InetSocketAddress) serverChannel.localAddress();
        this.transport = transport;
        this.limit = limit;
        this.paused = paused;
    }

    /** Binds and starts serving; port 0 picks a free port. */
    public static TargetServer start(TargetSettings settings) throws InterruptedException {
        boolean epoll = Epoll.isAvailable();
        IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        Class<? extends ServerChannel> channelType =
                epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(settings.threads(), io);
        ByteBuf body = Unpooled.unreleasableBuffer(
                Unpooled.directBuffer(settings.bodySize()).writeBytes(StaticBody.of(settings.bodySize())));
        ConnectionLimit limit = new ConnectionLimit(settings.maxConnections());
        AtomicInteger paused = new AtomicInteger();
        int idle = settings.idleTimeoutSeconds();
        try {
            Channel channel = new ServerBootstrap()
                    .group(group)
                    .channel(channelType)
                    .option(ChannelOption.SO_BACKLOG, settings.backlog())
                    .option(ChannelOption.SO_REUSEADDR, true)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, WRITE_MARKS)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(limit);
                            if (idle > 0) {
                                // Output that still drains counts as activity: a slow download is not idle.
                                ch.pipeline().addLast(new IdleStateHandler(true, 0, 0, idle, TimeUnit.SECONDS),
                                        new IdleCloser());
                            }
                            ch.pipeline().addLast(new Backpressure(paused), new HttpServerCodec(),
                                    new StaticResponder(body, settings.delayMs()));
                        }
                    })
                    .bind(settings.bindAddress(), settings.port())
                    .sync()
                    .channel();
            return new TargetServer(group, channel, epoll ? "epoll" : "nio", limit, paused);
        } catch (RuntimeException | InterruptedException e) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            throw e;
        }
    }

    /** Connections open now. */
    public int openConnections() {
        return limit.open();
    }

    /** Connections answered 503 and closed since the start: over {@code --max-connections}. */
    public long refusedConnections() {
        return limit.refused();
    }

    /** Connections not read now because their replies wait to be written: the client does not read them. */
    public int pausedConnections() {
        return paused.get();
    }

    public InetSocketAddress address() {
        return address;
    }

    public String transport() {
        return transport;
    }

    /** Blocks until the server is closed (Ctrl-C ends the JVM, whose hook closes it). */
    public void awaitClose() throws InterruptedException {
        serverChannel.closeFuture().sync();
    }

    @Override
    public void close() {
        serverChannel.close().awaitUninterruptibly(2, TimeUnit.SECONDS);
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    }

    /** The body: readable text of exactly the asked size, ending in a newline like nginx's test.txt. */
    static final class StaticBody {
        private static final byte[] TEXT = "Stampede target.\n".getBytes(StandardCharsets.US_ASCII);

        static byte[] of(int size) {
            byte[] body = new byte[size];
            for (int i = 0; i < size; i++) {
                body[i] = TEXT[i % TEXT.length];
            }
            if (size > 0) {
                body[size - 1] = '\n';
            }
            return body;
        }

        private StaticBody() {}
    }
}
