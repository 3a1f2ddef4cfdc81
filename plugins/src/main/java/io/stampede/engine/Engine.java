/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine;

import io.stampede.engine.tls.TlsContexts;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelHandler;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.ManualIoEventLoop;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The one Netty event-loop group of the JVM, shared by every Stampede sampler of every JMeter thread. It is the only
 * static mutable state of the project: created at the first sample (never in a static initialiser, so JMeter's GUI
 * class scan does not start Netty) and shut down when the test ends; a later test in the same JVM creates a new one.
 */
public final class Engine {
    private static final Logger LOG = LoggerFactory.getLogger(Engine.class);
    /** Netty's own property (shaded with Netty, like its class names). */
    private static final String LEAK_DETECTION = "io.netty.leakDetection.level";
    private static final Object LOCK = new Object();
    private static volatile Engine current;

    private final EventLoopGroup group;
    private final IoHandlerFactory ioFactory;
    private final Bootstrap bootstrap;
    private final String transport;
    private final List<Thread> threads = new CopyOnWriteArrayList<>();
    private final boolean epoll;
    /** Connections established and not yet closed, over all samplers of the JVM (reported to the JTL). */
    private final AtomicInteger open = new AtomicInteger();
    /** The TLS client contexts of every protocol, shared by all connections so that sessions resume. */
    private final TlsContexts tlsContexts = new TlsContexts();
    /** The connections users share per target (stampede.connection_sharing=engine), keyed "host:port[/tls]". */
    private final ConcurrentHashMap<String, ConnectionPool<?>> pools = new ConcurrentHashMap<>();
    /** The response timeouts of the connections JMeter threads read themselves (ThreadIoConnection). */
    private final ResponseDeadlines responseDeadlines;

    private Engine(int threads) {
        if (System.getProperty(LEAK_DETECTION) == null) {
            // Netty's default samples 1 buffer in 128 with a stack trace: ~2 % of an HTTP/2 run's CPU (a HEADERS
            // frame's buffer per request). A load generator's buffers are released by the codecs; set the property
            // (relocated name in the plugin jar: io.stampede.shaded.io.netty.leakDetection.level) to hunt a leak.
            ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        }
        epoll = Epoll.isAvailable();
        IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        ioFactory = io;
        ThreadFactory names = new DefaultThreadFactory("stampede-io", true);
        group = new MultiThreadIoEventLoopGroup(threads, (ThreadFactory) r -> {
            Thread t = names.newThread(r);
            this.threads.add(t);
            return t;
        }, io);
        transport = epoll ? "epoll" : "nio";
        responseDeadlines = new ResponseDeadlines(group.next());
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

    /**
     * The running engine, created on first use with one event loop per core (system property
     * {@code stampede.io_threads} overrides the count, e.g. to leave cores to a co-located server).
     */
    public static Engine get() {
        Engine e = current;
        if (e == null) {
            synchronized (LOCK) {
                e = current;
                if (e == null) {
                    e = new Engine(Math.max(1, Integer.getInteger("stampede.io_threads",
                            Runtime.getRuntime().availableProcessors())));
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
            e.pools.values().forEach(ConnectionPool::close);
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

    /**
     * The shared pool to {@code target} ("host:port", "/tls" appended for TLS), made at first use with at most
     * {@code maxSize} connections; later calls get the same pool whatever size they ask for.
     */
    @SuppressWarnings("unchecked") // one protocol's connections per target key
    public <C extends ConnectionPool.Pooled> ConnectionPool<C> pool(String target, int maxSize) {
        return (ConnectionPool<C>) pools.computeIfAbsent(target, t -> new ConnectionPool<C>(t, maxSize));
    }

    /** "epoll" or "nio". */
    public String transport() {
        return transport;
    }

    /** The open connections of every Stampede sampler in this JVM; 0 when no engine runs. */
    public static int openConnections() {
        Engine e = current;
        return e == null ? 0 : e.open.get();
    }

    /** False once this engine was shut down (a test ended): what was made on it is replaced. */
    public boolean isCurrent() {
        return current == this;
    }

    public ResponseDeadlines responseDeadlines() {
        return responseDeadlines;
    }

    /** Counts a connection established (any protocol), for the open-connections figure. */
    public void connectionOpened() {
        open.incrementAndGet();
    }

    /** Counts a connection closed that {@link #connectionOpened} counted. */
    public void connectionClosed() {
        open.decrementAndGet();
    }

    /**
     * Hands each event loop of the running engine to {@code visitor}, for probes that queue a task and measure how
     * late the loop runs it (the injector monitor's loop lag). Never starts an engine: nothing happens without one.
     */
    public static void forEachLoop(Consumer<EventExecutor> visitor) {
        Engine e = current;
        if (e != null && !e.group.isShuttingDown()) {
            e.group.forEach(visitor);
        }
    }

    /** An event loop for a new connection (round-robin over the group). */
    public EventLoop nextLoop() {
        return group.next();
    }

    /**
     * A new event loop that the calling thread drives itself ({@link ManualIoEventLoop}), with the engine's transport.
     * A JMeter thread that keeps many connections busy does their I/O on its own thread this way, as wrk's threads
     * do: no hand-off to a shared loop and back, so no thread wake-up per request. The caller closes it.
     */
    public ManualIoEventLoop newOwnedLoop() {
        ManualIoEventLoop loop = new ManualIoEventLoop(Thread.currentThread(), ioFactory);
        loop.runNow(); // initialises the I/O handler before the first channel registers
        return loop;
    }

    /**
     * Owner of {@code loop}: runs it until the channels closed on it are closed (at most 2 s), then stops it. From
     * another thread it can only be stopped: its channels would close when the owner next runs it, which it will
     * not, so that is said in jmeter.log ({@code what} names the connections).
     */
    public static void closeOwnedLoop(ManualIoEventLoop loop, String what) {
        if (!loop.inEventLoop()) {
            LOG.warn("{} closed from {} instead of their owner; their sockets close at JVM exit", what,
                    Thread.currentThread().getName());
            loop.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            return;
        }
        loop.runNow();
        loop.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        while (!loop.isTerminated() && System.nanoTime() - deadline < 0) {
            loop.run(TimeUnit.MILLISECONDS.toNanos(10));
        }
    }

    /** The TLS client contexts of this engine, made at first use and shared by every connection. */
    public TlsContexts tlsContexts() {
        return tlsContexts;
    }

    /**
     * A bootstrap connecting on {@code loop} with exactly the given connect timeout, from {@code local} when not
     * null. On epoll the local port is then chosen at connect time (IP_BIND_ADDRESS_NO_PORT), so each source address
     * can reach every destination through the whole port range instead of one shared bind-time range.
     */
    public Bootstrap newBootstrap(ChannelHandler handler, int connectTimeoutMillis, InetSocketAddress local,
                           EventLoop loop) {
        Bootstrap b = bootstrap.clone(loop)
                .handler(handler)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, Math.max(1, connectTimeoutMillis));
        if (local != null) {
            b.localAddress(local);
            if (epoll) {
                b.option(EpollChannelOption.IP_BIND_ADDRESS_NO_PORT, true);
            }
        }
        return b;
    }
}
