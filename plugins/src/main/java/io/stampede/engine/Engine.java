/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in compliance with
 * the License. You may obtain a copy of the License at http://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * The one Netty event-loop group of the JVM, shared by every Stampede sampler of every JMeter thread. It is the only
 * static mutable state of the project: created at the first sample (never in a static initialiser, so JMeter's GUI
 * class scan does not start Netty) and shut down when the test ends; a later test in the same JVM creates a new one.
 */
public final class Engine {
    private static final Logger LOG = LoggerFactory.getLogger(Engine.class);
    private static final Object LOCK = new Object();
    private static volatile Engine current;

    private final EventLoopGroup group;
    private final Bootstrap bootstrap;
    private final String transport;
    private final List<Thread> threads = new CopyOnWriteArrayList<>();

    private Engine(int threads) {
        boolean epoll = Epoll.isAvailable();
        IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        ThreadFactory names = new DefaultThreadFactory("stampede-io", true);
        group = new MultiThreadIoEventLoopGroup(threads, (ThreadFactory) r -> {
            Thread t = names.newThread(r);
            this.threads.add(t);
            return t;
        }, io);
        transport = epoll ? "epoll" : "nio";
        bootstrap = new Bootstrap()
                .group(group)
                .channel(epoll ? EpollSocketChannel.class : NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT);
        if (epoll) {
            LOG.info("Stampede engine: {} event loops on native epoll", threads);
        } else {
            LOG.info("Stampede engine: {} event loops on Java NIO (native epoll unavailable: {})", threads,
                    String.valueOf(Epoll.unavailabilityCause()));
        }
    }

    /** The running engine, created on first use with one event loop per core. */
    public static Engine get() {
        Engine e = current;
        if (e == null) {
            synchronized (LOCK) {
                e = current;
                if (e == null) {
                    e = new Engine(Runtime.getRuntime().availableProcessors());
                    current = e;
                }
            }
        }
        return e;
    }

    /**
     * Stops the engine, closing every connection it still holds, and waits (bounded) for its threads to end. Safe to
     * call when no engine runs and from several test elements' testEnded in a row.
     */
    public static void shutdown() {
        Engine e;
        synchronized (LOCK) {
            e = current;
            current = null;
        }
        if (e != null) {
            e.group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(10, TimeUnit.SECONDS);
            // The group reports termination just before its threads exit; wait for them so none outlives the test.
            for (Thread t : e.threads) {
                try {
                    t.join(2000);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            LOG.info("Stampede engine stopped");
        }
    }

    /** "epoll" or "nio". */
    public String transport() {
        return transport;
    }

    /** Whether the given engine is still the running one (a connection from a previous test must not be reused). */
    public boolean isRunning() {
        return current == this && !group.isShuttingDown();
    }

    Bootstrap newBootstrap(HttpConnection handler, int connectTimeoutMillis) {
        return bootstrap.clone()
                .handler(handler)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, Math.max(1, connectTimeoutMillis) + 1000);
    }
}
