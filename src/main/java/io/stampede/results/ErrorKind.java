/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.results;

import java.util.Locale;

/**
 * What went wrong in a failed sample, read from the JTL's responseCode and responseMessage.
 *
 * <p>Knows Stampede's samplers' exceptions and the ones stock JMeter (HttpClient4, HttpURLConnection)
 * writes, so that a plan mixing both is summarised with one vocabulary. The injector-side kinds come first
 * because they change the verdict: they say the load generator, not the server, failed.
 */
public enum ErrorKind {
    OUT_OF_LOCAL_PORTS("out of local ports (Cannot assign requested address)", true),
    POOL_FULL("connection pool full (stampede.pool_size)", true),
    CONNECTION_REFUSED("connection refused", false),
    CONNECTION_RESET("connection reset", false),
    CONNECT_TIMEOUT("connect timeout", false),
    RESPONSE_TIMEOUT("response timeout", false),
    PREMATURE_CLOSE("connection closed before the response was complete", false),
    HTTP2_STREAM_RESET("HTTP/2 stream reset by the server (RST_STREAM)", false),
    HTTP2_GOAWAY("HTTP/2 GOAWAY: stream not processed", false),
    HTTP2_PROTOCOL_ERROR("HTTP/2 protocol error", false),
    HTTP2_PING_TIMEOUT("HTTP/2 connection dead: PING unanswered (stampede.h2.ping_ms)", false),
    XMPP_STREAM_ERROR("XMPP stream error (the session ended: a stream error, or the stream closed)", false),
    XMPP_SASL_FAILURE("XMPP SASL failure (login refused)", false),
    XMPP_STANZA_ERROR("XMPP stanza error (an error reply)", false),
    XMPP_TIMEOUT("XMPP timeout (no login, IQ result or awaited stanza in time)", false),
    XMPP_INBOX_OVERFLOW("XMPP inbox overflow (stanzas received, pushed out of a full inbox: xmpp.inbox_limit)", true),
    WS_HANDSHAKE_REFUSED("WebSocket handshake refused (HTTP status)", false),
    WS_NOT_WEBSOCKET("not a WebSocket endpoint (upgrade not answered with 101)", false),
    WS_HANDSHAKE_INVALID("WebSocket handshake invalid (subprotocol, extension, accept key)", false),
    WS_HANDSHAKE_TIMEOUT("WebSocket upgrade unanswered (websocket.handshake_timeout)", false),
    WS_CLOSED_BY_SERVER("WebSocket closed by the server (close code)", false),
    WS_MESSAGE_TIMEOUT("WebSocket message timeout (websocket.timeout)", false),
    WS_PROTOCOL_ERROR("WebSocket protocol error", false),
    HTTP_4XX("HTTP 4xx", false),
    HTTP_5XX("HTTP 5xx", false),
    ASSERTION("assertion failed", false),
    OTHER("other", false);

    private final String label;
    private final boolean injectorSide;

    ErrorKind(String label, boolean injectorSide) {
        this.label = label;
        this.injectorSide = injectorSide;
    }

    /** Human words for summaries. */
    public String label() {
        return label;
    }

    /** True when this kind can only come from the injector's own limits. */
    public boolean injectorSide() {
        return injectorSide;
    }

    /** Classifies one failed sample. */
    public static ErrorKind of(String responseCode, String responseMessage) {
        String code = responseCode == null ? "" : responseCode;
        String text = (code + " " + (responseMessage == null ? "" : responseMessage)).toLowerCase(Locale.ROOT);
        if (code.length() == 3 && Character.isDigit(code.charAt(0))) {
            char c = code.charAt(0);
            if (c == '4') {
                return HTTP_4XX;
            }
            if (c == '5') {
                return HTTP_5XX;
            }
            return ASSERTION;
        }
        if (text.contains("cannot assign requested address") || text.contains("bindexception")
                || text.contains("address already in use: connect")) {
            return OUT_OF_LOCAL_PORTS;
        }
        if (text.contains("pooltimeoutexception")) {
            return POOL_FULL;
        }
        // XMPP's kinds by their exception (engine.xmpp): their messages quote conditions and server texts.
        if (text.contains("xmppstreamexception")) {
            return XMPP_STREAM_ERROR;
        }
        if (text.contains("saslfailureexception")) {
            return XMPP_SASL_FAILURE;
        }
        if (text.contains("stanzaerrorexception")) {
            return XMPP_STANZA_ERROR;
        }
        if (text.contains("xmpptimeoutexception")) {
            return XMPP_TIMEOUT;
        }
        if (text.contains("inboxoverflowexception")) {
            return XMPP_INBOX_OVERFLOW;
        }
        ErrorKind webSocket = webSocket(text);
        if (webSocket != null) {
            return webSocket;
        }
        if (text.contains("connecttimeout") || text.contains("connect timed out")) {
            return CONNECT_TIMEOUT;
        }
        // HTTP/2's own kinds first: their messages quote error codes such as REFUSED_STREAM.
        if (text.contains("streamresetexception")) {
            return HTTP2_STREAM_RESET;
        }
        if (text.contains("goawayexception")) {
            return HTTP2_GOAWAY;
        }
        if (text.contains("http2protocolexception")) {
            return HTTP2_PROTOCOL_ERROR;
        }
        if (text.contains("pingtimeoutexception")) {
            return HTTP2_PING_TIMEOUT;
        }
        if (text.contains("refused") || text.contains("hosthostconnect") || text.contains("httphostconnect")) {
            return CONNECTION_REFUSED;
        }
        if (text.contains("reset")) {
            return CONNECTION_RESET;
        }
        if (text.contains("prematureclose") || text.contains("nohttpresponse")
                || text.contains("unexpected end of file") || text.contains("connectionclosed")
                || text.contains("failed to respond")) {
            return PREMATURE_CLOSE;
        }
        if (text.contains("responsetimeout") || text.contains("sockettimeout") || text.contains("read timed out")) {
            return RESPONSE_TIMEOUT;
        }
        return OTHER;
    }

    /** The WebSocket samplers' exceptions (io.stampede.engine.websocket), before words like "refused" match. */
    private static ErrorKind webSocket(String text) {
        if (!text.contains("websocket")) {
            return null;
        }
        if (text.contains("websocketrefusedexception")) {
            return WS_HANDSHAKE_REFUSED;
        }
        if (text.contains("websocketnotupgradedexception")) {
            return WS_NOT_WEBSOCKET;
        }
        if (text.contains("websockethandshakeinvalidexception")) {
            return WS_HANDSHAKE_INVALID;
        }
        if (text.contains("websockethandshaketimeoutexception")) {
            return WS_HANDSHAKE_TIMEOUT;
        }
        if (text.contains("websocketclosedexception")) {
            return WS_CLOSED_BY_SERVER;
        }
        if (text.contains("websocketmessagetimeoutexception")) {
            return WS_MESSAGE_TIMEOUT;
        }
        if (text.contains("websocketprotocolexception")) {
            return WS_PROTOCOL_ERROR;
        }
        return null;
    }
}
