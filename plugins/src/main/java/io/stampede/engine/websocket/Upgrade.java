/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.websocket;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.websocketx.WebSocketClientHandshaker;
import io.netty.handler.codec.http.websocketx.WebSocketClientHandshakerFactory;
import io.netty.handler.codec.http.websocketx.WebSocketHandshakeException;
import io.netty.handler.codec.http.websocketx.WebSocketVersion;

import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * One opening handshake's HTTP side (RFC 6455 §4), on Netty's {@link WebSocketClientHandshaker}: the upgrade request
 * with the options' headers and the sample's cookie, and the answer as users read it: its status and head and
 * cookies on the call, and a refusal (4xx, 5xx), an answer that is not an upgrade, or an invalid 101, each named by
 * its own exception.
 */
final class Upgrade {
    private final WebSocketClientHandshaker handshaker;

    Upgrade(WebSocketOptions options, String cookie) {
        handshaker = WebSocketClientHandshakerFactory.newHandshaker(options.uri(), WebSocketVersion.V13,
                options.subprotocols(), options.compression(), headers(options, cookie), options.maxMessageBytes(),
                true, false, -1, false, false);
    }

    private static HttpHeaders headers(WebSocketOptions options, String cookie) {
        HttpHeaders h = new DefaultHttpHeaders();
        for (Map.Entry<String, String> e : options.headers()) {
            h.add(e.getKey(), e.getValue());
        }
        if (cookie != null && !cookie.isEmpty()) {
            h.set(HttpHeaderNames.COOKIE, cookie);
        }
        return h;
    }

    /** Writes the upgrade request. */
    ChannelFuture send(Channel ch) {
        return handshaker.handshake(ch);
    }

    /**
     * Reads the answer into {@code c} and, when it is a valid 101, switches {@code ch} to WebSocket frames.
     *
     * @param firstByteNanos when the answer's first byte arrived
     * @return the failure to report, or null when the session is open
     */
    IOException finish(Channel ch, FullHttpResponse r, WebSocketCall c, long firstByteNanos) {
        if (r.decoderResult().isFailure()) {
            return new WebSocketNotUpgradedException("The answer to the upgrade is not HTTP: "
                    + r.decoderResult().cause().getMessage());
        }
        int status = r.status().code();
        c.status = status;
        c.statusText = r.status().reasonPhrase();
        c.responseHead = head(r);
        c.firstByteNanos = firstByteNanos;
        List<String> cookies = r.headers().getAll(HttpHeaderNames.SET_COOKIE);
        c.setCookies = cookies.isEmpty() ? null : cookies;
        if (status != 101) {
            String what = "HTTP " + status + " " + c.statusText;
            return status >= 400 ? new WebSocketRefusedException("Handshake refused: " + what)
                    : new WebSocketNotUpgradedException("Not a WebSocket endpoint: the upgrade was answered with "
                    + what);
        }
        try {
            handshaker.finishHandshake(ch, r);
        } catch (WebSocketHandshakeException e) {
            return new WebSocketHandshakeInvalidException(e.getMessage());
        }
        return null;
    }

    private static String head(FullHttpResponse r) {
        StringBuilder b = new StringBuilder(256).append(r.protocolVersion()).append(' ').append(r.status())
                .append('\n');
        for (Map.Entry<String, String> h : r.headers()) {
            b.append(h.getKey()).append(": ").append(h.getValue()).append('\n');
        }
        return b.toString();
    }
}
