/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.xmpp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoop;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.stampede.engine.Engine;
import io.stampede.engine.Failures;
import io.stampede.engine.tls.Connector;

import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * XMPP over TCP (RFC 6120): the stream's XML on one connection, read by a {@link StanzaParser}. The connection opens
 * through the engine's {@link Connector} in cleartext (its connect failures named there, the connection counted);
 * STARTTLS then puts Netty's {@link SslHandler} in front of the pipeline mid-stream, with the engine's TLS context for
 * sessions, which is the one step Connector does not take: the server asks for TLS only after the stream opened.
 */
final class TcpTransport extends ChannelInboundHandlerAdapter implements XmppTransport, Connector.Listener {
    private final XmppSession session;
    private final XmppSettings settings;
    private final StanzaParser parser;
    private Channel channel;

    TcpTransport(XmppSession session, XmppSettings settings) {
        this.session = session;
        this.settings = settings;
        this.parser = new StanzaParser(session);
    }

    /** Connects on {@code loop}; the session hears {@link XmppSession#connected()} or a failure. */
    @Override
    public void connect(Engine engine, EventLoop loop) {
        try {
            Connector.open(engine, loop, InetSocketAddress.createUnresolved(settings.host(), settings.port()), null,
                    settings.connectTimeoutMillis(), null, false, this, null, this);
        } catch (RuntimeException e) {
            session.transportFailed(Failures.io(e));
        }
    }

    @Override
    public void connectStarted(Channel ch) {
        channel = ch;
    }

    @Override
    public void connected(Channel ch, SslHandler ssl) {
        session.connected();
    }

    @Override
    public void connectFailed(Channel ch, IOException why) {
        session.transportFailed(why);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf buf = (ByteBuf) msg;
        try {
            session.bytesArrived(System.nanoTime());
            parser.feed(buf.nioBuffer());
        } catch (XmppException e) {
            session.transportFailed(e);
        } finally {
            buf.release();
        }
    }

    /**
     * No more bytes for now: the parser goes unless a stanza is half-read, so a session idle between its stanzas
     * (most of them, most of the time, in a many-users test) holds no parser buffers.
     */
    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        parser.release();
        ctx.fireChannelReadComplete();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof SslHandshakeCompletionEvent done) {
            if (done.isSuccess()) {
                session.tlsEstablished();
            } else {
                session.transportFailed(Failures.io(done.cause()));
            }
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        session.transportClosed();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        session.transportFailed(Failures.io(cause));
        ctx.close();
    }

    @Override
    public boolean canStartTls() {
        return true;
    }

    @Override
    public void openStream(String domain) {
        write("<?xml version='1.0'?><stream:stream to='" + Xml.escape(domain)
                + "' xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams' version='1.0'>");
    }

    @Override
    public void write(String xml) {
        channel.writeAndFlush(ByteBufUtil.writeUtf8(channel.alloc(), xml), channel.voidPromise());
    }

    @Override
    public void startTls() {
        SslHandler tls = Engine.get().tlsContexts().forSessions(settings.trustAll())
                .newHandler(channel.alloc(), settings.domain(), settings.port());
        tls.setHandshakeTimeoutMillis(0); // the login's own timeout bounds it, and closes the session
        channel.pipeline().addFirst(tls);
    }

    @Override
    public void restartStream() {
        parser.restart();
    }

    @Override
    public void closeStream() {
        write("</stream:stream>");
    }

    @Override
    public void close() {
        if (channel != null) {
            channel.close();
        }
    }
}
