/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.InetSocketAddress;
import java.util.concurrent.locks.LockSupport;

/**
 * One keep-alive TCP connection owned by one JMeter thread, carrying one request at a time. The object is at once the
 * channel's handler and the reusable exchange between the JMeter thread and the event loop: the JMeter thread hands
 * a request over, parks, and is unparked by the event loop when the response is complete or failed. The state field
 * is the only synchronisation: whoever moves it out of WAITING owns the outcome (the event loop on completion, the
 * JMeter thread on timeout, any thread on interrupt), so a late event can never overwrite an outcome already taken.
 */
public final class HttpConnection extends ChannelInboundHandlerAdapter implements ChannelFutureListener, Runnable {
    private static final int IDLE = 0;
    private static final int CONNECTING = 1;
    private static final int WAITING = 2;
    /** The event loop won the race and is writing the outcome; DONE or FAILED follows at once. */
    private static final int COMPLETING = 3;
    private static final int DONE = 4;
    private static final int FAILED = 5;
    private static final int CLOSED = 6;

    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(HttpConnection.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Engine engine;
    private final ResponseFramer framer = new ResponseFramer();
    private volatile int state = CONNECTING;
    private volatile Thread waiter;
    private Channel channel;
    private ByteBuf pendingRequest;
    private IOException failure;
    private long firstByteNanos;
    private boolean reusable;

    private HttpConnection(Engine engine) {
        this.engine = engine;
    }

    /** A connection not opened yet: {@link #connect} opens it. */
    public static HttpConnection create(Engine engine) {
        return new HttpConnection(engine);
    }

    /**
     * Opens the connection, parking the calling thread until it is established, failed or timed out. Called once,
     * right after {@link #create}.
     *
     * @throws ConnectTimeoutException when not connected within {@code timeoutMillis}
     * @throws IOException the connect failure as reported by the transport (refused, no route, no local port...)
     */
    public void connect(InetSocketAddress address, int timeoutMillis, Tls tls) throws IOException {
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
        waiter = Thread.currentThread();
        ChannelFuture f = engine.newBootstrap(engine.withTls(this, tls), timeoutMillis).connect(address);
        channel = f.channel();
        f.addListener(this);
        await(deadline, "connect to " + address.getHostString() + ':' + address.getPort(), true);
    }

    /** Connect outcome, on the event loop. */
    @Override
    public void operationComplete(ChannelFuture future) {
        if (future.isSuccess() && Tls.of(future.channel()) != null) {
            // TLS: the connection is usable (and the connect time ends) once the handshake is done.
            Tls.of(future.channel()).handshakeFuture().addListener(h -> {
                if (h.isSuccess()) {
                    finish(CONNECTING, IDLE, null);
                } else {
                    Throwable cause = h.cause();
                    finish(CONNECTING, FAILED, cause instanceof IOException io ? io : new IOException(cause));
                    future.channel().close();
                }
            });
        } else if (future.isSuccess()) {
            finish(CONNECTING, IDLE, null);
        } else {
            Throwable cause = future.cause();
            finish(CONNECTING, FAILED, cause instanceof IOException io ? io : new IOException(cause));
        }
    }

    /**
     * Sends one request and parks until its response is framed. On return the response is in {@link #response()}.
     * On any exception the connection is closed and must be discarded.
     *
     * @param request bytes to send; ownership passes to this call (it is released after the write)
     * @param headRequest whether the request was HEAD (its response has no body)
     * @param keepLimit how many body bytes to keep
     */
    public void exchange(ByteBuf request, boolean headRequest, int keepLimit, int timeoutMillis) throws IOException {
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
        int s = state;
        if ((s != IDLE && s != DONE) || !channel.isActive()) {
            request.release();
            throw new PrematureCloseException("Connection closed before the request was sent");
        }
        framer.reset(headRequest, keepLimit);
        firstByteNanos = 0;
        pendingRequest = request;
        waiter = Thread.currentThread();
        state = WAITING;
        channel.eventLoop().execute(this);
        await(deadline, null, false);
    }

    /** Writes the pending request, on the event loop (a Runnable so the hand-off allocates nothing). */
    @Override
    public void run() {
        ByteBuf req = pendingRequest;
        pendingRequest = null;
        if (state == WAITING && channel.isActive()) {
            channel.writeAndFlush(req, channel.voidPromise());
        } else {
            finish(WAITING, FAILED, new PrematureCloseException("Connection closed before the request was sent"));
            req.release();
        }
    }

    private void await(long deadline, String connectWhat, boolean connecting) throws IOException {
        int from = connecting ? CONNECTING : WAITING;
        for (;;) {
            int s = state;
            if (s == DONE || s == IDLE) {
                return;
            }
            if (s == FAILED || s == CLOSED) {
                throw failure;
            }
            if (s == from) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    abort(from, connecting
                            ? new ConnectTimeoutException("Could not " + connectWhat + " within the connect timeout")
                            : new ResponseTimeoutException("No complete response within the response timeout"));
                    continue;
                }
                if (Thread.currentThread().isInterrupted()) {
                    abort(from, new InterruptedIOException("Sample interrupted"));
                    continue;
                }
                LockSupport.parkNanos(this, left);
            } else {
                // COMPLETING: the outcome is being written right now.
                Thread.onSpinWait();
            }
        }
    }

    /**
     * Stops a connect or exchange in progress from any thread (stop-test-now, a timeout): the waiting thread returns
     * at once with an InterruptedIOException and the connection is closed.
     */
    public void interrupt() {
        if (!abort(WAITING, new InterruptedIOException("Sample interrupted (test stopped)"))) {
            abort(CONNECTING, new InterruptedIOException("Connect interrupted (test stopped)"));
        }
    }

    private boolean abort(int from, IOException why) {
        if (STATE.compareAndSet(this, from, COMPLETING)) {
            failure = why;
            state = FAILED;
            LockSupport.unpark(waiter);
            if (channel != null) {
                channel.close();
            }
            return true;
        }
        return false;
    }

    /** Moves from {@code from} to {@code to} if nobody else took the outcome; wakes the JMeter thread. */
    private void finish(int from, int to, IOException why) {
        if (STATE.compareAndSet(this, from, COMPLETING)) {
            failure = why;
            state = to;
            LockSupport.unpark(waiter);
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        engine.connectionOpened();
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf in = (ByteBuf) msg;
        try {
            if (state != WAITING) {
                // Bytes nobody asked for: the stream is out of step, never reuse it.
                reusable = false;
                ctx.close();
                return;
            }
            if (firstByteNanos == 0) {
                firstByteNanos = System.nanoTime();
            }
            if (framer.feed(in)) {
                // A response followed by more bytes means the stream is out of step with our requests.
                reusable = framer.reusable() && !in.isReadable();
                finish(WAITING, DONE, null);
            }
        } catch (IOException e) {
            finish(WAITING, FAILED, e);
            ctx.close();
        } finally {
            in.release();
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        engine.connectionClosed();
        reusable = false;
        if (state == WAITING) {
            if (framer.closeReceived()) {
                finish(WAITING, DONE, null);
            } else {
                finish(WAITING, FAILED, new PrematureCloseException("Connection closed by the server "
                        + framer.progress()));
            }
        }
        finish(IDLE, CLOSED, new PrematureCloseException("Connection closed"));
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        reusable = false;
        IOException io = cause instanceof IOException e ? e : new IOException(cause.toString(), cause);
        finish(WAITING, FAILED, io);
        finish(CONNECTING, FAILED, io);
        ctx.close();
    }

    /** The framed response of the last exchange; valid until the next exchange. */
    public ResponseFramer response() {
        return framer;
    }

    /** System.nanoTime() when the first response byte arrived. */
    public long firstByteNanos() {
        return firstByteNanos;
    }

    /** Whether another request may follow on this connection. */
    public boolean reusable() {
        return reusable && state == DONE && channel.isActive() && engine.isRunning();
    }

    public void close() {
        reusable = false;
        if (channel != null) {
            channel.close();
        }
    }
}
