/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ErrorKindTest {

    @Test
    void stampedeSamplerExceptions() {
        assertEquals(ErrorKind.POOL_FULL,
                ErrorKind.of("Non HTTP response code: io.stampede.engine.PoolTimeoutException",
                        "Non HTTP response message: connection pool full: all 2 connections to 127.0.0.1:80 stayed "
                                + "busy for the connect timeout (200 ms); raise stampede.pool_size or the connect timeout"));
        assertEquals(true, ErrorKind.POOL_FULL.injectorSide());
        assertEquals(ErrorKind.OUT_OF_LOCAL_PORTS,
                ErrorKind.of("Non HTTP response code: java.net.BindException",
                        "Non HTTP response message: Cannot assign requested address"));
        assertEquals(ErrorKind.CONNECTION_REFUSED,
                ErrorKind.of("Non HTTP response code: java.net.ConnectException",
                        "Non HTTP response message: Connection refused"));
        assertEquals(ErrorKind.CONNECTION_RESET,
                ErrorKind.of("Non HTTP response code: java.net.SocketException",
                        "Non HTTP response message: Connection reset by peer"));
        assertEquals(ErrorKind.CONNECT_TIMEOUT,
                ErrorKind.of("Non HTTP response code: io.stampede.engine.ConnectTimeoutException",
                        "Non HTTP response message: Connect timed out after 1000 ms"));
        assertEquals(ErrorKind.RESPONSE_TIMEOUT,
                ErrorKind.of("Non HTTP response code: io.stampede.engine.ResponseTimeoutException",
                        "Non HTTP response message: No complete response within 1000 ms"));
        assertEquals(ErrorKind.PREMATURE_CLOSE,
                ErrorKind.of("Non HTTP response code: io.stampede.engine.PrematureCloseException",
                        "Non HTTP response message: Connection closed after 10 bytes"));
    }

    @Test
    void webSocketKindsAreTheirOwnWhateverTheirMessagesSay() {
        String p = "Non HTTP response code: io.stampede.engine.websocket.";
        assertEquals(ErrorKind.WS_HANDSHAKE_REFUSED, ErrorKind.of(p + "WebSocketRefusedException",
                "Non HTTP response message: Handshake refused: HTTP 403 Forbidden"));
        assertEquals(ErrorKind.WS_NOT_WEBSOCKET, ErrorKind.of(p + "WebSocketNotUpgradedException",
                "Non HTTP response message: Not a WebSocket endpoint: the upgrade was answered with HTTP 200 OK"));
        assertEquals(ErrorKind.WS_HANDSHAKE_INVALID, ErrorKind.of(p + "WebSocketHandshakeInvalidException",
                "Non HTTP response message: Invalid subprotocol. Actual: null. Expected one of: mqtt"));
        assertEquals(ErrorKind.WS_HANDSHAKE_TIMEOUT, ErrorKind.of(p + "WebSocketHandshakeTimeoutException",
                "Non HTTP response message: No answer to the upgrade within 300 ms"));
        assertEquals(ErrorKind.WS_CLOSED_BY_SERVER, ErrorKind.of(p + "WebSocketClosedException",
                "Non HTTP response message: Closed by the server: 1006 (connection reset)"));
        assertEquals(ErrorKind.WS_MESSAGE_TIMEOUT, ErrorKind.of(p + "WebSocketMessageTimeoutException",
                "Non HTTP response message: No message matching contains x within the timeout"));
        assertEquals(ErrorKind.WS_PROTOCOL_ERROR, ErrorKind.of(p + "WebSocketProtocolException",
                "Non HTTP response message: Message larger than the limit of 1000 bytes"));
        assertEquals(ErrorKind.CONNECTION_REFUSED, ErrorKind.of("Non HTTP response code: java.net.ConnectException",
                "Non HTTP response message: Connection refused"), "a WebSocket connect refused is a connect refused");
    }

    @Test
    void http2Kinds() {
        assertEquals(ErrorKind.HTTP2_STREAM_RESET,
                ErrorKind.of("Non HTTP response code: io.stampede.engine.StreamResetException",
                        "Non HTTP response message: HTTP/2 stream 3 reset by the server: REFUSED_STREAM (0x7)"));
        assertEquals(ErrorKind.HTTP2_GOAWAY,
                ErrorKind.of("Non HTTP response code: io.stampede.engine.GoAwayException",
                        "Non HTTP response message: GOAWAY from the server (NO_ERROR (0x0), last stream 1)"));
        assertEquals(ErrorKind.HTTP2_PROTOCOL_ERROR,
                ErrorKind.of("Non HTTP response code: io.stampede.engine.Http2ProtocolException",
                        "Non HTTP response message: The server did not answer in HTTP/2 (connection refused?)"));
        assertEquals(ErrorKind.HTTP2_PING_TIMEOUT,
                ErrorKind.of("Non HTTP response code: io.stampede.engine.PingTimeoutException",
                        "Non HTTP response message: No frame from the server at 10.0.0.5:443 for 2000 ms, not even"
                        + " the answer to a PING sent 1000 ms ago (stampede.h2.ping_ms 1000): the connection was"
                        + " closed as dead"));
    }

    @Test
    void stockJMeterExceptions() {
        assertEquals(ErrorKind.PREMATURE_CLOSE,
                ErrorKind.of("Non HTTP response code: org.apache.http.NoHttpResponseException",
                        "Non HTTP response message: localhost:80 failed to respond"));
        assertEquals(ErrorKind.CONNECTION_REFUSED,
                ErrorKind.of("Non HTTP response code: org.apache.http.conn.HttpHostConnectException",
                        "Non HTTP response message: Connect to localhost:1 failed"));
        assertEquals(ErrorKind.RESPONSE_TIMEOUT,
                ErrorKind.of("Non HTTP response code: java.net.SocketTimeoutException",
                        "Non HTTP response message: Read timed out"));
        assertEquals(ErrorKind.PREMATURE_CLOSE,
                ErrorKind.of("Non HTTP response code: java.net.SocketException",
                        "Non HTTP response message: Unexpected end of file from server"));
    }

    @Test
    void xmppKindsByTheirExceptionWhateverTheirMessageQuotes() {
        assertEquals(ErrorKind.XMPP_STREAM_ERROR,
                ErrorKind.of("Non HTTP response code: io.stampede.engine.xmpp.XmppStreamException",
                        "Non HTTP response message: stream error: closed (the server closed the connection, reset)"));
        assertEquals(ErrorKind.XMPP_SASL_FAILURE,
                ErrorKind.of("Non HTTP response code: io.stampede.engine.xmpp.SaslFailureException",
                        "Non HTTP response message: SASL failure: not-authorized (Invalid username or password)"));
        assertEquals(ErrorKind.XMPP_STANZA_ERROR,
                ErrorKind.of("Non HTTP response code: io.stampede.engine.xmpp.StanzaErrorException",
                        "Non HTTP response message: stanza error: service-unavailable (IQ get, type cancel)"));
        assertEquals(ErrorKind.XMPP_TIMEOUT,
                ErrorKind.of("Non HTTP response code: io.stampede.engine.xmpp.XmppTimeoutException",
                        "Non HTTP response message: timeout: IQ st1 result (nothing within 2000 ms)"));
        assertEquals(ErrorKind.XMPP_INBOX_OVERFLOW,
                ErrorKind.of("Non HTTP response code: io.stampede.engine.xmpp.InboxOverflowException",
                        "Non HTTP response message: inbox overflow: 3 stanza(s), 2 of them message(s), pushed out of "
                                + "the full inbox (100 kept) before a wait took them: take them sooner or raise "
                                + "xmpp.inbox_limit"));
        assertTrue(ErrorKind.XMPP_INBOX_OVERFLOW.injectorSide(), "the plan's own limit, not the server's doing");
    }

    @Test
    void httpStatusesAndAssertions() {
        assertEquals(ErrorKind.HTTP_5XX, ErrorKind.of("500", "Internal Server Error"));
        assertEquals(ErrorKind.HTTP_4XX, ErrorKind.of("404", "Not Found"));
        assertEquals(ErrorKind.ASSERTION, ErrorKind.of("200", "OK"));
        assertEquals(ErrorKind.OTHER, ErrorKind.of("Non HTTP response code: java.lang.IllegalStateException", "x"));
    }
}
