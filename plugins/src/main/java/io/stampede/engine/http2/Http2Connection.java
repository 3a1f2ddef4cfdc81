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
import io.stampede.engine.Http2ProtocolException;
import io.stampede.engine.Outbox;
import io.stampede.engine.tls.Tls;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.timeout.IdleStateHandler;

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

    /** Loop: what waits goes to the carrier open for new streams, or a connection is opened for it. */
    void pump() {
        if (pending.isEmpty()) {
            return;
        }
        if (current != null) {
            current.sendPending();
        } else if (connecting == null) {
            connect();
        }
    }

    void failPending(IOException why) {
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
            Http1Carrier c = new Http1Carrier(this, ch, connectStartNanos, System.nanoTime());
            ch.pipeline().addLast(c);
            connecting = null;
            current = c;
            c.sendPending();
        }
    }

    private void startHttp2(Channel ch) {
        Http2Session s = new Http2SessionBuilder(this, connectStartNanos).build();
        if (options.pingIntervalMillis() > 0) {
            // Reads only: what we send proves nothing about the server.
            ch.pipeline().addLast(new IdleStateHandler(options.pingIntervalMillis(), 0, 0, TimeUnit.MILLISECONDS));
        }
        ch.pipeline().addLast(new Http2FrameCounter(s), s);
    }

    Http2Options options() {
        return options;
    }

    /** Streams in flight at once on this connection, at most. */
    int streams() {
        return streams;
    }

    /** The owner's completions. */
    CompletionQueue queue() {
        return queue;
    }

    /** Loop: whether a request waits for a stream. */
    boolean hasPending() {
        return !pending.isEmpty();
    }

    /** Loop: the request that waited longest for a stream, taken. */
    Http2Exchange nextPending() {
        return pending.poll();
    }

    /** Loop: a request sent once goes first, on a new connection (a GOAWAY, a stale keep-alive connection). */
    void retry(Http2Exchange e) {
        pending.addFirst(e);
    }

    /** Loop: {@code c} takes no new streams any more; returns whether it was the one taking them. */
    boolean stopCarrying(Carrier c) {
        if (current != c) {
            return false;
        }
        current = null;
        return true;
    }

    /** Loop: the session on {@code ch} read the server's SETTINGS; new streams go to it. */
    void sessionReady(Channel ch, Http2Session s) {
        if (connecting == ch) {
            connecting = null;
        }
        if (!closed) {
            current = s;
            s.sendPending();
        }
    }

    /**
     * Loop: the session on {@code ch} closed ({@code ready}: after the server's SETTINGS). Before SETTINGS the
     * requests that waited for it fail as not spoken to in HTTP/2; a session open for new streams fails them too, so
     * that a server that drops every connection costs one failed sample per request, not a reconnect loop.
     */
    void sessionClosed(Channel ch, boolean ready, Http2Session s, IOException why) {
        if (!ready && connecting == ch) {
            connecting = null;
            failPending(notHttp2(why));
        }
        if (stopCarrying(s)) {
            failPending(why);
        }
    }

    /** Owner (response timeout): the stream is reset (HTTP/1.1: the connection closed); the others go on. */
    void cancel(Http2Exchange e) {
        Carrier c = e.carrier;
        int id = e.streamId;
        if (c != null) {
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


    /** Whether this slot speaks TLS (h2 with ALPN) rather than cleartext (h2c by prior knowledge). */
    boolean secure() {
        return tls != null;
    }
}
