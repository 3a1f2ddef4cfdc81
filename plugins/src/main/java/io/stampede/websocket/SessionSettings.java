/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.websocket;

import io.stampede.engine.tls.Tls;
import io.stampede.engine.websocket.WebSocketOptions;
import io.stampede.sampler.PropertyNumbers;
import io.stampede.sampler.SourceAddresses;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The open sampler's properties, checked, as the engine's {@link WebSocketOptions} plus what the thread side needs:
 * how many sessions the thread holds under the name, their pacing, the handshake timeout and the source addresses.
 * Immutable.
 */
record SessionSettings(String url, WebSocketOptions options, int sessions, long pacingMillis,
                       int handshakeTimeoutMillis, SourceAddresses sources) {
    static final int DEFAULT_CONNECT_TIMEOUT = 5000;
    static final int DEFAULT_HANDSHAKE_TIMEOUT = 10000;
    static final int DEFAULT_MAX_MESSAGE_BYTES = 1 << 20;
    static final int DEFAULT_INBOX = 16;

    /**
     * @param props the element's property strings (substituted)
     * @throws IllegalArgumentException naming the property and the fix
     */
    static SessionSettings read(UnaryOperator<String> props) throws UnknownHostException {
        String url = props.apply(WebSocketOpenSampler.URL).trim();
        URI uri = uri(url);
        boolean secure = "wss".equals(uri.getScheme());
        int port = uri.getPort() > 0 ? uri.getPort() : secure ? 443 : 80;
        InetSocketAddress remote = new InetSocketAddress(uri.getHost(), port);
        if (remote.isUnresolved()) {
            throw new UnknownHostException(uri.getHost());
        }
        Tls tls = null;
        if (secure) {
            String sni = props.apply(WebSocketOpenSampler.TLS_SNI).trim();
            tls = new Tls(sni.isEmpty() ? uri.getHost() : sni, port,
                    Boolean.parseBoolean(props.apply(WebSocketOpenSampler.TLS_TRUST_ALL).trim()));
        }
        String subprotocols = props.apply(WebSocketOpenSampler.SUBPROTOCOLS).trim();
        WebSocketOptions o = new WebSocketOptions(uri, remote, tls, headers(props.apply(WebSocketOpenSampler.HEADERS)),
                subprotocols.isEmpty() ? null : subprotocols,
                Boolean.parseBoolean(props.apply(WebSocketOpenSampler.COMPRESSION).trim()),
                whole(props, WebSocketOpenSampler.MAX_MESSAGE_BYTES, DEFAULT_MAX_MESSAGE_BYTES, 1, Integer.MAX_VALUE - 8),
                whole(props, WebSocketOpenSampler.PING_MS, 0, 0, Integer.MAX_VALUE),
                whole(props, WebSocketOpenSampler.CONNECT_TIMEOUT, DEFAULT_CONNECT_TIMEOUT, 1, Integer.MAX_VALUE / 1000),
                whole(props, WebSocketOpenSampler.INBOX, DEFAULT_INBOX, 0, 1_000_000));
        return new SessionSettings(url, o, whole(props, WebSocketOpenSampler.SESSIONS_PER_THREAD, 1, 1, 1_000_000),
                whole(props, WebSocketOpenSampler.PACING_MS, 0, 0, Integer.MAX_VALUE),
                whole(props, WebSocketOpenSampler.HANDSHAKE_TIMEOUT, DEFAULT_HANDSHAKE_TIMEOUT, 1,
                        Integer.MAX_VALUE / 1000),
                SourceAddresses.parse(props.apply(WebSocketOpenSampler.SOURCE_ADDRESSES)));
    }

    private static int whole(UnaryOperator<String> props, String name, int dflt, int min, int max) {
        return PropertyNumbers.whole(name, props.apply(name), dflt, min, max);
    }

    private static URI uri(String url) {
        if (url.isEmpty()) {
            throw new IllegalArgumentException(WebSocketOpenSampler.URL + " is empty; enter the endpoint, as in "
                    + "ws://host:port/path or wss://host/path");
        }
        URI u;
        try {
            u = new URI(url);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(WebSocketOpenSampler.URL + ": '" + url + "' is not a URL ("
                    + e.getReason() + "); write it as ws://host:port/path or wss://host/path");
        }
        String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("ws") && !scheme.equals("wss") || u.getHost() == null) {
            throw new IllegalArgumentException(WebSocketOpenSampler.URL + ": '" + url + "' is not a ws:// or wss:// "
                    + "URL with a host; write it as ws://host:port/path or wss://host/path");
        }
        return u;
    }

    /** "Name: value" lines; blank lines are skipped. */
    private static List<Map.Entry<String, String>> headers(String text) {
        List<Map.Entry<String, String>> out = new ArrayList<>();
        for (String line : text.split("\r?\n")) {
            if (line.isBlank()) {
                continue;
            }
            int colon = line.indexOf(':');
            if (colon <= 0) {
                throw new IllegalArgumentException(WebSocketOpenSampler.HEADERS + ": '" + line + "' is not a header "
                        + "line; write one 'Name: value' per line");
            }
            out.add(new AbstractMap.SimpleImmutableEntry<>(line.substring(0, colon).trim(),
                    line.substring(colon + 1).trim()));
        }
        return out;
    }

    /** The source address of the n-th session (round-robin), or null for the kernel's choice. */
    InetSocketAddress source(int n) {
        if (sources.isEmpty()) {
            return null;
        }
        InetAddress a = sources.addresses().get(Math.floorMod(n, sources.addresses().size()));
        return new InetSocketAddress(a, 0);
    }
}
