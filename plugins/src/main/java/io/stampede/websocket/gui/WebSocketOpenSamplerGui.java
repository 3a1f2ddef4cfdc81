/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.websocket.gui;

import io.stampede.websocket.WebSocketOpenSampler;

import javax.swing.JPanel;

/** The open sampler's panel: endpoint, handshake, session options, many sessions per thread, TLS. */
public class WebSocketOpenSamplerGui extends WebSocketSamplerGui {
    private static final long serialVersionUID = 1L;

    public WebSocketOpenSamplerGui() {
        super("Stampede WebSocket Open", WebSocketOpenSampler::new);
        sessionBlock("Sessions per thread:", text(WebSocketOpenSampler.SESSIONS_PER_THREAD, 6, "1",
                "Sessions this thread holds under the name; above 1 the message sampler of the name paces each "
                        + "session on its own schedule, and this sample is the group's opening"));
        JPanel server = block("Server");
        wide(server, "URL:", text(WebSocketOpenSampler.URL, 40, "ws://localhost:8080/",
                "The endpoint: ws://host:port/path or wss://host/path; variables allowed"));
        row(server, "Subprotocols:", text(WebSocketOpenSampler.SUBPROTOCOLS, 16, "",
                "Subprotocols offered, comma-separated; the server must choose one of them"),
                null, check(WebSocketOpenSampler.COMPRESSION, "permessage-deflate", false,
                        "Offer compression (RFC 7692); used when the server accepts it"));
        wide(server, "Headers:", area(WebSocketOpenSampler.HEADERS, 3, "",
                "Extra handshake headers, one 'Name: value' per line; a Cookie Manager in scope adds its cookies"));
        JPanel session = block("Timeouts and limits");
        row(session, "Connect timeout (ms):", text(WebSocketOpenSampler.CONNECT_TIMEOUT, 7, "5000",
                "Milliseconds to wait for the TCP connection"),
                "Handshake timeout (ms):", text(WebSocketOpenSampler.HANDSHAKE_TIMEOUT, 7, "10000",
                        "Milliseconds from the connect to the server's 101 (TLS handshake included)"));
        row(session, "Max message (bytes):", text(WebSocketOpenSampler.MAX_MESSAGE_BYTES, 9, "1048576",
                "The largest message accepted, all fragments joined; a larger one is a protocol error (close 1009)"),
                "Ping every (ms):", text(WebSocketOpenSampler.PING_MS, 7, "",
                        "Our own ping at this interval while the session is open; empty or 0 for none"));
        row(session, "Inbox (messages):", text(WebSocketOpenSampler.INBOX, 6, "16",
                "Messages that arrive with nobody waiting kept for a later wait; the oldest is dropped beyond it"),
                "Pacing (ms):", text(WebSocketOpenSampler.PACING_MS, 7, "",
                        "With several sessions per thread: ms between two messages of one session; the openings "
                                + "are spread over one interval"));
        JPanel tls = block("TLS (wss) and source");
        row(tls, "Server name (SNI):", text(WebSocketOpenSampler.TLS_SNI, 16, "",
                "TLS server name sent and checked; empty: the URL's host"),
                null, check(WebSocketOpenSampler.TLS_TRUST_ALL, "Trust all certificates", false,
                        "Accept any certificate without checking the host name: test rigs only"));
        wide(tls, "Source addresses:", text(WebSocketOpenSampler.SOURCE_ADDRESSES, 30, "",
                "Local addresses to connect from, round-robin: addresses, ranges or CIDR blocks; empty: the "
                        + "kernel chooses"));
        clearGui();
    }
}
