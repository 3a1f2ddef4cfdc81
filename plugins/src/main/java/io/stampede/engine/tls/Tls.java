/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.tls;

import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.handler.ssl.SslHandler;

/**
 * TLS for one target: the server name sent as SNI (and checked against the certificate unless trust-all), and
 * whether any certificate is accepted (test rigs with self-signed certificates). Immutable; the SSL contexts are the
 * engine's, shared by every connection, so the JDK's client session cache resumes sessions across connections.
 *
 * @param serverName SNI host name; an IP literal sends no SNI (RFC 6066), as browsers do
 */
public record Tls(String serverName, int port, boolean trustAll) {

    /** A TLS handler for a new channel, on the engine's shared context of its kind ({@link TlsContexts}). */
    SslHandler newHandler(TlsContexts contexts, boolean alpn, ByteBufAllocator alloc) {
        return contexts.get(alpn, trustAll).newHandler(alloc, serverName, port);
    }

    /** The channel's TLS handler, or null on a plain connection. */
    public static SslHandler of(Channel ch) {
        return ch.pipeline().get(SslHandler.class);
    }
}
