/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.tls;

import io.stampede.engine.Engine;
import io.stampede.engine.Failures;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoop;
import io.netty.handler.ssl.NotSslRecordException;
import io.netty.handler.ssl.SslHandler;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.function.Function;

/**
 * The one way every protocol opens a connection: the TCP connect on a given event loop, then, for a TLS target, the
 * handshake, which is part of the connect (requests wait for it, and so does the connect time). Failures are named
 * once here: the transport's connect timeout as the engine's, and a TLS handshake the server answered in cleartext
 * (a TLS protocol pointed at a cleartext port) as that mismatch, not as the hex dump of the reply. The open
 * connection is counted in the engine's count from the TCP connect until the channel closes.
 */
public final class Connector {
    /** What a connection is told, on its event loop. */
    public interface Listener {
        /** The connect started on {@code ch}, before any outcome (which may follow at once). */
        void connectStarted(Channel ch);

        /** Connected, and with TLS the handshake done: {@code ssl} is the channel's TLS handler (null without TLS). */
        void connected(Channel ch, SslHandler ssl);

        /** The connect or the handshake failed on {@code ch} (closed then), named as users read it. */
        void connectFailed(Channel ch, IOException why);
    }

    /**
     * A TLS protocol whose server answered the handshake in cleartext: the failure to report, given the sentence
     * that says so ({@code The server at HOST:PORT did not answer in TLS (it sent 'HTTP/1.1 400 Bad Request')}), to
     * which the protocol adds the fix.
     */
    public interface NotTls extends Function<String, IOException> {
    }

    private Connector() {
    }

    /**
     * Opens a connection to {@code remote} on {@code loop}; the outcome goes to {@code listener} on the loop.
     *
     * @param handler the protocol's handler, added behind the TLS handler (null: the protocol adds its own later)
     * @param tls null for cleartext
     * @param alpn whether the TLS context offers h2 then http/1.1 in ALPN
     * @param local the source address; null lets the kernel choose
     * @throws RuntimeException as Netty's bootstrap throws it (the caller fails what waited for the connection)
     */
    public static void open(Engine engine, EventLoop loop, InetSocketAddress remote, InetSocketAddress local,
                            int connectTimeoutMillis, Tls tls, boolean alpn, ChannelHandler handler, NotTls notTls,
                            Listener listener) {
        ChannelHandler h = handler;
        if (tls != null) {
            h = new ChannelInitializer<Channel>() {
                @Override
                protected void initChannel(Channel ch) {
                    ch.pipeline().addLast(tls.newHandler(engine.tlsContexts(), alpn, ch.alloc()));
                    if (handler != null) {
                        ch.pipeline().addLast(handler);
                    }
                }
            };
        } else if (h == null) {
            h = new ChannelInitializer<Channel>() {
                @Override
                protected void initChannel(Channel ch) {
                    // the protocol adds its handlers once connected
                }
            };
        }
        ChannelFuture f = engine.newBootstrap(h, connectTimeoutMillis, local, loop).connect(remote);
        Channel ch = f.channel();
        listener.connectStarted(ch);
        f.addListener(cf -> {
            if (!cf.isSuccess()) {
                listener.connectFailed(ch, Failures.connectFailure(cf.cause(), remote));
                return;
            }
            engine.connectionOpened();
            ch.closeFuture().addListener(x -> engine.connectionClosed());
            SslHandler ssl = Tls.of(ch);
            if (ssl == null) {
                listener.connected(ch, null);
                return;
            }
            ssl.handshakeFuture().addListener(hs -> {
                if (hs.isSuccess()) {
                    listener.connected(ch, ssl);
                    return;
                }
                NotSslRecordException cleartext = notSslRecord(hs.cause());
                listener.connectFailed(ch, cleartext != null
                        ? notTls.apply("The server at " + remote.getHostString() + ':' + remote.getPort()
                                + " did not answer in TLS (it sent " + cleartextReply(String.valueOf(
                                cleartext.getMessage())) + ')')
                        : Failures.connectFailure(hs.cause(), remote));
                ch.close();
            });
        });
    }

    private static NotSslRecordException notSslRecord(Throwable t) {
        for (Throwable c = t; c != null && c.getCause() != c; c = c.getCause()) {
            if (c instanceof NotSslRecordException n) {
                return n;
            }
        }
        return null;
    }

    /**
     * The first line of the reply quoted in Netty's "not an SSL/TLS record: HEX" when it is text (the JDK's TLS; on
     * BoringSSL the message has no bytes).
     */
    static String cleartextReply(String notSslMessage) {
        String hex = notSslMessage.substring(notSslMessage.lastIndexOf(' ') + 1);
        StringBuilder line = new StringBuilder();
        try {
            for (int i = 0; i + 1 < hex.length() && line.length() < 80; i += 2) {
                int c = Integer.parseInt(hex, i, i + 2, 16);
                if (c == '\r' || c == '\n') {
                    break;
                }
                if (c < 0x20 || c > 0x7e) {
                    return "binary data, e.g. an HTTP/2 frame in cleartext";
                }
                line.append((char) c);
            }
        } catch (NumberFormatException e) {
            return "data that is not TLS";
        }
        return line.length() == 0 ? "data that is not TLS" : "'" + line + "'";
    }
}
