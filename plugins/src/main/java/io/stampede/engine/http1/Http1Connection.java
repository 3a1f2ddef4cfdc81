/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.http1;

import io.stampede.engine.CompletionQueue;
import io.stampede.engine.ConnectionPool;
import io.stampede.engine.tls.Connector;
import io.stampede.engine.Engine;
import io.stampede.engine.Failures;
import io.stampede.engine.http2.Http2Connection;
import io.stampede.engine.Outbox;
import io.stampede.engine.tls.Tls;
import io.stampede.engine.WriteBatch;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoop;
import io.netty.handler.ssl.NotSslRecordException;
import io.netty.handler.ssl.SslHandler;

import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * One HTTP/1.1 connection slot on an event loop: the one a JMeter thread owns in the classic mode over TLS, from an
 * "IP source address" (JMeter's HTTP Request), or with {@code stampede.io_mode=engine} (depth 1, its thread parked
 * on a {@link ParkingCompletion}; plain HTTP is otherwise the thread's own blocking {@link ThreadIoConnection}), the
 * one it leases per sample from a {@link ConnectionPool} in the pooled mode (depth 1 too), and each of the many a thread
 * keeps busy in a {@link ConnectionGroup} (on a schedule, pipelined). HTTP/2, and HTTP/1.1 after a server declined h2 in
 * ALPN, is {@link Http2Connection}'s. Its {@link Http1Exchange exchanges} (one per request that may be in flight at once,
 * i.e. the pipelining depth) are armed by the owning thread and completed here; the outcome goes to the
 * {@link CompletionQueue} each was armed with. Everything below runs on the one event loop the connection is pinned to, across
 * reconnects: a closed connection is reopened when the next exchange is sent, so the object lives as long as its
 * slot.
 *
 * <p>Here: when to (re)connect (the connect and TLS handshake are the {@link Connector}'s), writing the exchanges of
 * its {@link PipelineRing} in order, a close that ends a close-delimited body or fails what is in flight, and the
 * retry of a request that met a stale keep-alive connection. Responses are read by the engine's one HTTP/1.1
 * {@link ResponseReader}, which also holds the retry rule.
 */
public final class Http1Connection extends ChannelInboundHandlerAdapter implements Connector.Listener, ConnectionPool.Pooled,
        WriteBatch.Pending, ResponseReader.OnWire<Http1Exchange> {
    private final Engine engine;
    private final EventLoop loop;
    private final Outbox outbox;
    /** Where due requests wait for the owner's next loop run; null: written at once. */
    private final WriteBatch batch;
    private boolean inBatch;
    private final InetSocketAddress remote;
    private final InetSocketAddress local;
    private final int connectTimeoutMillis;
    private final Tls tls;
    private final Http1Exchange[] exchanges;
    /** Submitted exchanges in order, the first ones on the wire. Event loop only. */
    private final PipelineRing ring;
    private volatile Channel channel;
    private volatile boolean closed;
    private boolean connecting;
    private long connectStartNanos;
    private int exchangesOnChannel;

    /**
     * @param depth how many requests may be on the wire at once (pipelining depth, 1 without pipelining)
     * @param local the source address of every connection opened; null lets the kernel choose
     * @param tls null for plain TCP; the TLS handshake is part of the connect
     * @param loop the event loop this connection is pinned to: one of the engine's, or one its owner drives
     * @param outbox the way to {@code loop} from the owner's thread; null when the owner drives the loop itself
     * @param batch where requests on an open connection wait for the owner's next loop run (with a loop the owner
     *              drives); null to write each at once
     */
    public Http1Connection(Engine engine, EventLoop loop, Outbox outbox, WriteBatch batch, InetSocketAddress remote,
                           InetSocketAddress local, int connectTimeoutMillis, int depth, Tls tls) {
        this.tls = tls;
        this.engine = engine;
        this.outbox = outbox;
        this.batch = batch;
        this.loop = loop;
        this.remote = remote;
        this.local = local;
        this.connectTimeoutMillis = connectTimeoutMillis;
        this.ring = new PipelineRing(depth);
        this.exchanges = new Http1Exchange[depth];
        for (int i = 0; i < depth; i++) {
            exchanges[i] = new Http1Exchange(this);
        }
    }

    /** The connection's request slots, as many as its pipelining depth. */
    public Http1Exchange[] exchanges() {
        return exchanges;
    }

    EventLoop loop() {
        return loop;
    }

    /** Event loop: whether a connect (TLS handshake included) is under way. */
    boolean connecting() {
        return connecting;
    }

    /** The server this connection (re)connects to. */
    public InetSocketAddress remote() {
        return remote;
    }

    /** False once the loop it is pinned to shuts down (the engine stopped at a test's end): replace it. */
    public boolean usable() {
        return !closed && !loop.isShuttingDown();
    }

    /** Any thread: an exchange due now goes on the wire, at once when called on the connection's loop. */
    void dispatch(Http1Exchange e) {
        if (loop.inEventLoop()) {
            e.run();
        } else if (outbox != null) {
            outbox.add(e);
        } else {
            loop.execute(e);
        }
    }

    /** A connection is shared by its exchanges only, and one channel at a time. */
    @Override
    public boolean isSharable() {
        return true;
    }

    /** Event loop: an armed exchange is due; it goes on the wire now, or once the connection is (re)opened. */
    void submit(Http1Exchange e) {
        if (closed) {
            e.fail(Failures.threadFinished());
            return;
        }
        ring.dropSettled(e);
        e.submitted();
        ring.add(e);
        Channel ch = channel;
        if (connecting) {
            return; // written when the connect completes
        }
        if (ch != null && ch.isActive()) {
            if (batch == null) {
                writeUnwritten(ch, 0, 0);
            } else if (!inBatch) {
                inBatch = true;
                batch.add(this);
            }
        } else {
            connect();
        }
    }

    /** Owner's loop, from the {@link WriteBatch}: writes what was submitted since, reconnecting if the channel died. */
    @Override
    public void writeBatched() {
        inBatch = false;
        if (ring.written() >= ring.size() || connecting) {
            return; // failed or written meanwhile, or waiting for a connect that writes them
        }
        Channel ch = channel;
        if (closed) {
            failAll(Failures.threadFinished());
        } else if (ch != null && ch.isActive()) {
            writeUnwritten(ch, 0, 0);
        } else {
            connect();
        }
    }

    private void connect() {
        ring.forgetOldChannel();
        connecting = true;
        connectStartNanos = System.nanoTime();
        exchangesOnChannel = 0;
        try {
            Connector.open(engine, loop, remote, local, connectTimeoutMillis, tls, false, this, Http1Connection::notTls,
                    this);
        } catch (RuntimeException e) {
            connecting = false;
            failAll(Failures.io(e));
        }
    }

    @Override
    public void connectStarted(Channel ch) {
        channel = ch;
    }

    /** Connected (TLS: handshake done), on the loop. */
    @Override
    public void connected(Channel ch, SslHandler ssl) {
        if (ch != channel) {
            return;
        }
        if (closed) {
            connecting = false;
            ch.close();
            return;
        }
        connecting = false;
        writeUnwritten(ch, connectStartNanos, System.nanoTime());
    }

    @Override
    public void connectFailed(Channel ch, IOException why) {
        if (ch != channel) {
            return;
        }
        connecting = false;
        failAll(why);
    }

    /** https to a cleartext port: the class stays the TLS handler's, the message says what to change. */
    private static IOException notTls(String what) {
        return new NotSslRecordException(what + "; https needs a TLS port (nginx: 'listen PORT ssl;'); use http for a"
                + " cleartext port");
    }

    private void writeUnwritten(Channel ch, long connectStart, long connectEnd) {
        boolean any = false;
        for (Http1Exchange e = ring.nextUnwritten(); e != null; e = ring.nextUnwritten()) {
            if (!e.sent(System.nanoTime())) {
                continue; // settled by its owner, or armed again (its own queued submit adds it anew)
            }
            if (connectStart != 0) {
                e.connected(connectStart, connectEnd);
            }
            e.readingStarts();
            exchangesOnChannel++;
            ch.write(e.request.retainedBytes(), ch.voidPromise());
            any = true;
        }
        if (any) {
            ch.flush();
        }
    }

    private void failAll(IOException why) {
        while (ring.size() > 0) {
            ring.pop().failSubmitted(why);
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf in = (ByteBuf) msg;
        try {
            if (ctx.channel() != channel || !ResponseReader.read(in, this, System.nanoTime())) {
                ctx.close();
            }
        } catch (IOException e) {
            failAll(e);
            ctx.close();
        } finally {
            in.release();
        }
    }

    /** The reader's view of the ring: the oldest request on the wire, unless its owner gave up on it. */
    @Override
    public Http1Exchange awaiting() {
        return ring.written() > 0 && ring.head().state() == Http1Exchange.SENT ? ring.head() : null;
    }

    @Override
    public ResponseFramer framer(Http1Exchange e) {
        return e.framer;
    }

    @Override
    public void completed(Http1Exchange e, long nowNanos) {
        ring.pop();
        e.succeed(nowNanos);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (ctx.channel() != channel) {
            return;
        }
        ring.dropSettled(null);
        if (ring.written() == 0) {
            return; // idle: the next exchange reconnects
        }
        Http1Exchange e = ring.head();
        long now = System.nanoTime();
        if (e.state() == Http1Exchange.SENT && e.framer.closeReceived()) {
            ring.pop();
            e.succeed(now);
        } else if (mayRetry(e, null) && e.unsend()) {
            // The server closed an idle keep-alive connection as we sent: send once more on a new one, as a browser.
            e.retrying();
            ring.unwriteAll();
            connect();
            return;
        }
        failAll(ring.size() > 0 ? ring.head().framer.closedEarly() : Failures.closedByServer(""));
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // While connecting (TLS handshake) the connect listener reports the failure.
        if (ctx.channel() == channel) {
            ring.dropSettled(null);
        }
        if (ctx.channel() == channel && ring.written() > 0) {
            if (!mayRetry(ring.head(), cause)) {
                // A stale reset is retried by channelInactive, which the close below triggers.
                failAll(Failures.io(cause));
            }
        }
        ctx.close();
    }

    /** {@link ResponseReader#mayRetry The one retry rule}, for the oldest request on the wire. */
    private boolean mayRetry(Http1Exchange e, Throwable cause) {
        return !closed && ResponseReader.mayRetry(e, e.framer, ring.size() == 1, exchangesOnChannel, cause);
    }

    /** Any thread: closes the current channel; exchanges in flight fail, the next one reconnects. */
    public void closeChannel() {
        Channel ch = channel;
        if (ch != null) {
            ch.close();
        }
    }

    /** Owner: closes for good; exchanges not yet sent are dropped. */
    public void close() {
        closed = true;
        closeChannel();
    }
}
