/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.xmpp;

import io.netty.buffer.ByteBufUtil;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PingWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PongWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketClientHandshaker;
import io.netty.handler.codec.http.websocketx.WebSocketClientHandshakerFactory;
import io.netty.handler.codec.http.websocketx.WebSocketCloseStatus;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketHandshakeException;
import io.netty.handler.codec.http.websocketx.WebSocketVersion;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.ReferenceCountUtil;
import io.stampede.engine.Engine;
import io.stampede.engine.Failures;
import io.stampede.engine.tls.Connector;
import io.stampede.engine.tls.Tls;

import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * XMPP over WebSocket (RFC 7395): the connect (and, for wss, the TLS handshake) through the engine's
 * {@link Connector}, the opening handshake with subprotocol {@code xmpp} by Netty's handshaker, then one element per
 * text message: {@code <open/>} and {@code <close/>} instead of the stream's tags, no STARTTLS. Received frames,
 * fragments included, go straight into one {@link StanzaParser} reading elements one after another, so a message
 * split over frames needs no aggregation buffer, and an idle session holds no parser state.
 */
final class WebSocketTransport extends ChannelInboundHandlerAdapter implements XmppTransport, Connector.Listener,
        StanzaParser.Sink {
    static final String NS_FRAMING = "urn:ietf:params:xml:ns:xmpp-framing";
    static final String SUBPROTOCOL = "xmpp";
    /** The largest frame read: a stanza, or a fragment of one (the parser reads fragments as they come). */
    private static final int MAX_FRAME = 256 * 1024;
    /** The largest upgrade response read (a refusal's page included). */
    private static final int HANDSHAKE_BYTES = 16 * 1024;

    private final XmppSession session;
    private final XmppSettings settings;
    private final StanzaParser parser;
    private Channel channel;
    /** Only during the opening handshake. */
    private WebSocketClientHandshaker handshaker;
    private boolean upgraded;
    private long connectedNanos;
    private long tlsNanos;

    WebSocketTransport(XmppSession session, XmppSettings settings) {
        this.session = session;
        this.settings = settings;
        this.parser = StanzaParser.forFramedElements(this);
    }

    @Override
    public void connect(Engine engine, EventLoop loop) {
        handshaker = WebSocketClientHandshakerFactory.newHandshaker(settings.webSocket(), WebSocketVersion.V13,
                SUBPROTOCOL, false, EmptyHttpHeaders.INSTANCE, MAX_FRAME, true, false, -1, false, false);
        Tls tls = settings.webSocketTls() ? new Tls(settings.host(), settings.port(), settings.trustAll()) : null;
        ChannelInitializer<Channel> pipeline = new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                // The HTTP codecs serve the upgrade only: the handshaker replaces them with the frame codecs.
                ch.pipeline().addLast(new HttpClientCodec(), new HttpObjectAggregator(HANDSHAKE_BYTES),
                        WebSocketTransport.this);
            }
        };
        Connector.open(engine, loop, InetSocketAddress.createUnresolved(settings.host(), settings.port()), null,
                settings.connectTimeoutMillis(), tls, false, pipeline, sentence -> new XmppStreamException(
                        "connection", sentence + ": use ws:// for a cleartext port"), this);
    }

    @Override
    public void connectStarted(Channel ch) {
        channel = ch;
    }

    @Override
    public void connected(Channel ch, SslHandler ssl) {
        long now = System.nanoTime();
        if (connectedNanos == 0) {
            connectedNanos = now;
        }
        if (ssl != null) {
            tlsNanos = now;
        }
        handshaker.handshake(ch).addListener(h -> {
            if (!h.isSuccess()) {
                session.transportFailed(Failures.io(h.cause()));
            }
        });
    }

    @Override
    public void connectFailed(Channel ch, IOException why) {
        session.transportFailed(why);
    }

    /** With wss, the TCP connect ends here, before the TLS handshake. */
    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        if (connectedNanos == 0) {
            connectedNanos = System.nanoTime();
        }
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            if (msg instanceof WebSocketFrame frame) {
                frame(ctx, frame);
            } else if (msg instanceof FullHttpResponse response) {
                upgrade(response);
            }
        } catch (XmppException e) {
            session.transportFailed(e);
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    private void upgrade(FullHttpResponse r) throws XmppException {
        if (handshaker == null) {
            return;
        }
        if (r.decoderResult().isFailure()) {
            throw new XmppStreamException("websocket-upgrade", "the answer to the upgrade is not HTTP: "
                    + r.decoderResult().cause().getMessage());
        }
        if (r.status().code() != 101) {
            throw new XmppStreamException("websocket-upgrade", "HTTP " + r.status() + " from "
                    + settings.webSocket() + ": not an XMPP WebSocket endpoint");
        }
        try {
            handshaker.finishHandshake(channel, r);
        } catch (WebSocketHandshakeException e) {
            throw new XmppStreamException("websocket-upgrade", e.getMessage());
        }
        handshaker = null;
        upgraded = true;
        session.upgraded(connectedNanos, tlsNanos);
    }

    private void frame(ChannelHandlerContext ctx, WebSocketFrame f) throws XmppException {
        if (f instanceof PingWebSocketFrame) {
            ctx.writeAndFlush(new PongWebSocketFrame(f.content().retain()));
        } else if (f instanceof CloseWebSocketFrame) {
            // The server ends the connection; what it means for the session (closed or failed) is its step's.
            closeConnection();
        } else if (f instanceof BinaryWebSocketFrame) {
            throw new XmppStreamException("websocket-binary", "RFC 7395 carries XMPP in text messages only");
        } else if (!(f instanceof PongWebSocketFrame)) {
            // A text message, or a continuation of one: the parser reads elements across any split.
            session.bytesArrived(System.nanoTime());
            parser.feed(f.content().nioBuffer());
        }
    }

    /** No more bytes for now: the parser goes unless an element is half-read. */
    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        parser.release();
        ctx.fireChannelReadComplete();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        upgraded = false;
        handshaker = null;
        session.transportClosed();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        session.transportFailed(Failures.io(cause));
        ctx.close();
    }

    // ---- the stream's elements, from the parser ----

    @Override
    public void streamOpened(XmlElement header) {
        // never called: a framed stream has no header of its own, its <open/> comes as an element
    }

    @Override
    public void element(XmlElement e) throws XmppException {
        if (e.ns().equals(NS_FRAMING) && e.name().equals("open")) {
            session.streamOpened(e);
        } else if (e.ns().equals(NS_FRAMING) && e.name().equals("close")) {
            session.streamClosed();
        } else {
            session.element(e);
        }
    }

    @Override
    public void streamClosed() {
        // never called: the framing's stream is never closed by the server's bytes
    }

    // ---- the session's side ----

    @Override
    public boolean canStartTls() {
        return false;
    }

    @Override
    public void openStream(String domain) {
        write("<open xmlns='" + NS_FRAMING + "' to='" + Xml.escape(domain) + "' version='1.0'/>");
    }

    @Override
    public void write(String xml) {
        channel.writeAndFlush(new TextWebSocketFrame(ByteBufUtil.writeUtf8(channel.alloc(), qualified(xml))),
                channel.voidPromise());
    }

    /**
     * A stanza with its namespace: each message is read as a document of its own (RFC 7395), with no stream around
     * it to give {@code jabber:client} as on TCP, so a message, presence or iq written without one gets it.
     */
    static String qualified(String xml) {
        int start = 0;
        while (start < xml.length() && Character.isWhitespace(xml.charAt(start))) {
            start++;
        }
        if (!xml.startsWith("<", start)) {
            return xml;
        }
        int nameEnd = start + 1;
        while (nameEnd < xml.length() && !Character.isWhitespace(xml.charAt(nameEnd)) && xml.charAt(nameEnd) != '/'
                && xml.charAt(nameEnd) != '>') {
            nameEnd++;
        }
        String name = xml.substring(start + 1, nameEnd);
        if (!name.equals("message") && !name.equals("presence") && !name.equals("iq")) {
            return xml;
        }
        int tagEnd = xml.indexOf('>', nameEnd);
        if (tagEnd < 0 || xml.substring(nameEnd, tagEnd).contains("xmlns=")) {
            return xml;
        }
        return xml.substring(0, nameEnd) + " xmlns='jabber:client'" + xml.substring(nameEnd);
    }

    @Override
    public void startTls() {
        throw new IllegalStateException("XMPP over WebSocket has no STARTTLS: wss:// is TLS");
    }

    @Override
    public void restartStream() {
        // each message is a document of its own: the next <open/> needs no new parser
    }

    @Override
    public void closeStream() {
        write("<close xmlns='" + NS_FRAMING + "'/>");
    }

    @Override
    public void close() {
        if (channel != null) {
            closeConnection();
        }
    }

    /** A WebSocket close (1000) when upgraded, so the server sees an orderly end, then the TCP connection's. */
    private void closeConnection() {
        if (upgraded && channel.isActive()) {
            upgraded = false;
            channel.writeAndFlush(new CloseWebSocketFrame(WebSocketCloseStatus.NORMAL_CLOSURE))
                    .addListener(ChannelFutureListener.CLOSE);
        } else {
            channel.close();
        }
    }
}
