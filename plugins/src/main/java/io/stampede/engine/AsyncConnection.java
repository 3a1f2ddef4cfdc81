/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in compliance with
 * the License. You may obtain a copy of the License at http://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandler;
import io.netty.channel.EventLoop;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * One of the many connections a JMeter thread keeps busy when a sampler runs more than one connection per thread.
 * Unlike {@link HttpConnection} nobody parks on it: the owning thread {@link #arm arms} it with a request and a send
 * time, the event loop (re)connects if needed, sends at that time, frames the response and puts the connection on
 * its owner's {@link CompletionQueue}; the owner {@link #take takes} it, reads the outcome and arms it again. The
 * object is reused for the connection slot's whole life, across reconnects, so a request allocates nothing here.
 *
 * <p>The state field decides races: only the thread that moves it out of SENT (the event loop on completion, the
 * owner on a response timeout) publishes an outcome, so an outcome is delivered exactly once.
 */
public final class AsyncConnection extends CompletionQueue.Node
        implements ChannelInboundHandler, ChannelFutureListener, Runnable {
    /** Armed: a send is queued or scheduled on an event loop. */
    private static final int ARMED = 0;
    private static final int CONNECTING = 1;
    private static final int SENT = 2;
    private static final int COMPLETING = 3;
    private static final int DONE = 4;
    private static final int FAILED = 5;
    /** The owner holds it (outcome taken, not yet armed again); also the initial state. */
    private static final int HELD = 6;
    private static final int CLOSED = 7;

    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(AsyncConnection.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Engine engine;
    private final CompletionQueue queue;
    private final InetSocketAddress remote;
    private final InetSocketAddress local;
    private final ResponseFramer framer = new ResponseFramer();
    private volatile int state = HELD;
    private volatile Channel channel;
    private volatile long deadlineNanos;

    // Written by the owner before arming (published by the state write and the executor hand-off).
    private PreparedRequest request;
    private int keepLimit;
    private int connectTimeoutMillis;
    private long responseTimeoutNanos;
    private long intendedNanos;

    // Written on the event loop before the outcome is published.
    private long connectStartNanos;
    private long connectEndNanos;
    private long sentNanos;
    private long firstByteNanos;
    private long doneNanos;
    private IOException failure;
    private boolean reusable;
    private boolean retried;
    private int exchangesOnChannel;

    /** @param local the source address of every connection this slot opens; null lets the kernel choose */
    public AsyncConnection(Engine engine, CompletionQueue queue, InetSocketAddress remote, InetSocketAddress local) {
        this.engine = engine;
        this.queue = queue;
        this.remote = remote;
        this.local = local;
    }

    /**
     * Owner: sends {@code req} at {@code sendAtNanos} (System.nanoTime(); now or in the past sends at once), over the
     * current connection or a new one if it is closed.
     */
    public void arm(PreparedRequest req, long sendAtNanos, int keepBytes, int connectTimeout, int responseTimeout) {
        request = req;
        intendedNanos = sendAtNanos;
        keepLimit = keepBytes;
        connectTimeoutMillis = connectTimeout;
        responseTimeoutNanos = responseTimeout * 1_000_000L;
        connectStartNanos = 0;
        connectEndNanos = 0;
        sentNanos = 0;
        firstByteNanos = 0;
        doneNanos = 0;
        failure = null;
        retried = false;
        state = ARMED;
        Channel ch = channel;
        try {
            EventLoop loop = ch != null && ch.isActive() ? ch.eventLoop() : engine.nextLoop();
            long delay = sendAtNanos - System.nanoTime();
            if (delay > 0) {
                loop.schedule(this, delay, TimeUnit.NANOSECONDS);
            } else {
                loop.execute(this);
            }
        } catch (RejectedExecutionException e) {
            complete(ARMED, FAILED, new PrematureCloseException("Engine stopped (test ending)"));
        }
    }

    /** The armed send, on an event loop. */
    @Override
    public void run() {
        if (state != ARMED) {
            return; // closed while waiting for its send time
        }
        Channel ch = channel;
        if (ch != null && ch.isActive()) {
            send(ch);
        } else {
            connect();
        }
    }

    private void connect() {
        state = CONNECTING;
        connectStartNanos = System.nanoTime();
        exchangesOnChannel = 0;
        try {
            ChannelFuture f = engine.newBootstrap(this, connectTimeoutMillis, local).connect(remote);
            channel = f.channel();
            f.addListener(this);
        } catch (RuntimeException e) {
            complete(CONNECTING, FAILED, new IOException(e.toString(), e));
        }
    }

    /** Connect outcome, on the new channel's event loop. */
    @Override
    public void operationComplete(ChannelFuture f) {
        if (f.channel() != channel) {
            return;
        }
        if (f.isSuccess()) {
            connectEndNanos = System.nanoTime();
            if (state == CONNECTING) {
                send(f.channel());
            } else if (state == CLOSED) {
                f.channel().close(); // closed by its owner while connecting
            }
        } else {
            Throwable c = f.cause();
            complete(CONNECTING, FAILED, c instanceof IOException io ? io : new IOException(String.valueOf(c), c));
        }
    }

    private void send(Channel ch) {
        framer.reset(request.head(), keepLimit);
        exchangesOnChannel++;
        long now = System.nanoTime();
        if (sentNanos == 0) {
            sentNanos = now;
        }
        deadlineNanos = now + responseTimeoutNanos;
        state = SENT;
        ch.writeAndFlush(request.retainedBytes(), ch.voidPromise());
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf in = (ByteBuf) msg;
        try {
            if (ctx.channel() != channel || state != SENT) {
                // Bytes nobody asked for: the stream is out of step, never reuse it.
                reusable = false;
                ctx.close();
                return;
            }
            if (firstByteNanos == 0) {
                firstByteNanos = System.nanoTime();
            }
            if (framer.feed(in)) {
                doneNanos = System.nanoTime();
                reusable = framer.reusable() && !in.isReadable();
                complete(SENT, DONE, null);
            }
        } catch (IOException e) {
            complete(SENT, FAILED, e);
            ctx.close();
        } finally {
            in.release();
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        engine.connectionOpened();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        engine.connectionClosed();
        if (ctx.channel() != channel) {
            return;
        }
        reusable = false;
        if (state != SENT) {
            return; // idle: the next send reconnects
        }
        if (framer.closeReceived()) {
            doneNanos = System.nanoTime();
            complete(SENT, DONE, null);
        } else if (!framer.started() && exchangesOnChannel > 1 && !retried && STATE.compareAndSet(this, SENT, ARMED)) {
            // The server closed an idle keep-alive connection as we sent: send once more on a new one, as a browser.
            retried = true;
            connect();
        } else {
            complete(SENT, FAILED, new PrematureCloseException("Connection closed by the server " + framer.progress()));
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (ctx.channel() == channel) {
            reusable = false;
            boolean staleReset = state == SENT && !framer.started() && exchangesOnChannel > 1 && !retried
                    && (cause instanceof SocketException || String.valueOf(cause.getMessage()).contains("reset"));
            if (!staleReset) {
                // A stale reset is retried by channelInactive, which the close below triggers.
                IOException io = cause instanceof IOException e ? e : new IOException(cause.toString(), cause);
                complete(SENT, FAILED, io);
                complete(CONNECTING, FAILED, io);
            }
        }
        ctx.close();
    }

    private void complete(int from, int to, IOException why) {
        if (STATE.compareAndSet(this, from, COMPLETING)) {
            failure = why;
            deadlineNanos = 0;
            state = to;
            queue.offer(this);
        }
    }

    /**
     * Owner: fails the exchange with a response timeout if its deadline passed, closing the connection.
     *
     * @return whether it did
     */
    public boolean expireIfOverdue(long nowNanos) {
        long d = deadlineNanos;
        if (d == 0 || nowNanos - d < 0 || !STATE.compareAndSet(this, SENT, COMPLETING)) {
            return false;
        }
        failure = new ResponseTimeoutException("No complete response within the response timeout");
        deadlineNanos = 0;
        reusable = false;
        Channel ch = channel;
        state = FAILED;
        if (ch != null) {
            ch.close();
        }
        queue.offer(this);
        return true;
    }

    /** Owner: takes the outcome this connection put on the queue; it stays held until armed again. */
    public void take() {
        state = HELD;
    }

    /** Owner: whether the outcome taken is a failure; {@link #failure()} says which. */
    public boolean failed() {
        return failure != null;
    }

    public IOException failure() {
        return failure;
    }

    /** The response taken; valid until the next {@link #arm}. */
    public ResponseFramer response() {
        return framer;
    }

    /** The request the outcome belongs to. */
    public PreparedRequest request() {
        return request;
    }

    /** Owner, after take: whether another request may follow on this connection; closes it otherwise. */
    public void closeUnlessReusable(boolean keepAlive) {
        if (!keepAlive || !reusable) {
            Channel ch = channel;
            if (ch != null) {
                ch.close();
            }
        }
    }

    /** Owner: closes for good; a pending send is dropped. */
    public void close() {
        state = CLOSED;
        Channel ch = channel;
        if (ch != null) {
            ch.close();
        }
    }

    /** When the send was meant to happen (the schedule, for latency corrected for coordinated omission). */
    public long intendedNanos() {
        return intendedNanos;
    }

    /** When this exchange started: the connect if it opened one, else the write; 0 if it never got that far. */
    public long startNanos() {
        return connectStartNanos != 0 ? connectStartNanos : sentNanos;
    }

    /** Connect duration in ns, 0 when the exchange reused an open connection. */
    public long connectNanos() {
        return connectStartNanos != 0 && connectEndNanos != 0 ? connectEndNanos - connectStartNanos : 0;
    }

    public long firstByteNanos() {
        return firstByteNanos;
    }

    /** When the response completed (or 0 when it failed). */
    public long doneNanos() {
        return doneNanos;
    }

    // Events this handler, the last of its pipeline, has no use for: passed on like ChannelInboundHandlerAdapter.

    @Override
    public void channelRegistered(ChannelHandlerContext ctx) {
        ctx.fireChannelRegistered();
    }

    @Override
    public void channelUnregistered(ChannelHandlerContext ctx) {
        ctx.fireChannelUnregistered();
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        ctx.fireChannelReadComplete();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        // nothing to set up
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        // nothing to free
    }
}
