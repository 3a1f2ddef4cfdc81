/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.websocket;

import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.websocketx.WebSocketFrameAggregator;
import io.netty.handler.codec.http.websocketx.extensions.compression.WebSocketClientCompressionHandler;
import io.netty.handler.ssl.NotSslRecordException;
import io.netty.handler.ssl.SslHandler;
import io.stampede.engine.Failures;
import io.stampede.engine.tls.Connector;

import java.io.IOException;

/**
 * One open call's way to an open session: the connection (TLS included) through the engine's {@link Connector} with
 * the session's pipeline, the upgrade request once connected, and the answer to it. The {@link Upgrade} lives on the
 * session, not here: it exists only while a handshake is under way, which is how an answer that nobody awaits any
 * more is told apart.
 */
final class Handshake implements Connector.Listener {
    /** The largest handshake response read (a refusal's body included). */
    private static final int HANDSHAKE_BYTES = 65536;

    private final WebSocketSession session;
    private final int gen;

    private Handshake(WebSocketSession session, int gen) {
        this.session = session;
        this.gen = gen;
    }

    /** Connects for the open call {@code gen}; the session's upgrade is made already. */
    static void start(WebSocketSession s, int gen) {
        WebSocketOptions options = s.options;
        try {
            Connector.open(s.engine, s.loop, options.remote(), s.source, options.connectTimeoutMillis(), options.tls(),
                    false, new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            ch.pipeline().addLast(new WireCounter(s), new HttpClientCodec(),
                                    new HttpObjectAggregator(HANDSHAKE_BYTES));
                            if (options.compression()) {
                                ch.pipeline().addLast(new WebSocketClientCompressionHandler(
                                        options.maxMessageBytes()));
                            }
                            ch.pipeline().addLast(new WebSocketFrameAggregator(options.maxMessageBytes()),
                                    new InboundFrames(s));
                        }
                    }, Handshake::notTls, new Handshake(s, gen));
        } catch (RuntimeException e) {
            s.fail(gen, Failures.io(e));
        }
    }

    /** wss to a cleartext port: the class stays the TLS handler's, the message says what to change. */
    private static IOException notTls(String what) {
        return new NotSslRecordException(what + "; wss needs a TLS port (nginx: 'listen PORT ssl;'); use ws for a"
                + " cleartext port");
    }

    @Override
    public void connectStarted(Channel ch) {
        session.channel = ch;
    }

    @Override
    public void connected(Channel ch, SslHandler ssl) {
        if (ch != session.channel) {
            return;
        }
        if (!session.call.isArmed(gen)) {
            ch.close();
            return;
        }
        session.upgrade.send(ch).addListener(h -> {
            if (!h.isSuccess()) {
                session.fail(gen, Failures.io(h.cause()));
            }
        });
    }

    @Override
    public void connectFailed(Channel ch, IOException why) {
        if (ch == session.channel) {
            session.fail(gen, why);
        }
    }

    /**
     * The answer to the upgrade on the session's current connection, for the call the loop is carrying out: an
     * answer nobody asked for (the open call expired) closes the connection.
     */
    static void answered(WebSocketSession s, FullHttpResponse r) {
        int gen = s.running;
        long first = s.messageStart;
        s.messageStart = 0;
        WebSocketCall c = s.call;
        if (s.upgrade == null || c.kind != WebSocketCall.Kind.OPEN || !c.isArmed(gen)) {
            s.channel.close();
            return;
        }
        IOException failed = s.upgrade.finish(s.channel, r, c, first);
        if (failed != null) {
            s.failAndClose(gen, failed);
            return;
        }
        s.opened(c, gen);
    }
}
