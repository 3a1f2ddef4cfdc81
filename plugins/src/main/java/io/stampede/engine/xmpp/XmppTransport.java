/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.xmpp;

import io.netty.channel.EventLoop;
import io.stampede.engine.Engine;

/**
 * The bytes under an XMPP session: a TCP stream of XML ({@link TcpTransport}) or WebSocket messages of one element
 * each (RFC 7395, {@link WebSocketTransport}). The session speaks in elements; the transport frames them and turns
 * what it reads into {@link StanzaParser.Sink} events. Called on the session's event loop only.
 */
interface XmppTransport {

    /** Connects on {@code loop}; the session hears that the stream can open, or a failure. */
    void connect(Engine engine, EventLoop loop);

    /** Whether the stream can switch to TLS (STARTTLS): on TCP; over WebSocket TLS is the URL's (wss). */
    boolean canStartTls();

    /** Opens a stream to {@code domain}: the stream header on TCP, {@code <open/>} over WebSocket. */
    void openStream(String domain);

    /** Writes one element (or several) as XML text, flushed. */
    void write(String xml);

    /** Switches to TLS; calls back {@link XmppSession#tlsEstablished()} or fails the session. */
    void startTls();

    /** The next bytes start a new stream (after TLS, after SASL). */
    void restartStream();

    /** Ends our side of the stream: {@code </stream:stream>} on TCP, {@code <close/>} over WebSocket. */
    void closeStream();

    /** Closes the connection at once. */
    void close();
}
