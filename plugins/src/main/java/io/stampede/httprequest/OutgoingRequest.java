/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.httprequest;

import org.apache.http.client.utils.URIUtils;
import org.apache.jmeter.protocol.http.util.HTTPConstants;
import org.apache.jmeter.util.JMeterUtils;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;

/**
 * One request exactly as it goes on the wire: request line, header fields in HttpClient 4's order (the request's own
 * fields, then Content-Length, the entity's Content-Type, Host, User-Agent, and last the Authorization of the auth
 * scheme) and the body. One per hop: an automatic redirect or an authentication challenge makes a new one.
 */
final class OutgoingRequest {
    private static final boolean NO_DEFAULT_USER_AGENT =
            JMeterUtils.getPropDefault("httpclient4.default_user_agent_disabled", false);
    /** Honest about who sends it; stock sends Apache-HttpClient's. docs/http-request.md lists the difference. */
    static final String USER_AGENT = "Stampede (JMeter HTTP Request on Netty; Java/"
            + System.getProperty("java.version") + ")";

    private static final byte[] NO_BYTES = new byte[0];

    private final String method;
    private final URL url;
    private final String target;
    private final HeaderFields headers;
    private final RequestBody body;
    private byte[] encoded;

    private OutgoingRequest(String method, URL url, String target, HeaderFields headers, RequestBody body) {
        this.method = method;
        this.url = url;
        this.target = target;
        this.headers = headers;
        this.body = body;
    }

    /**
     * @param own the request's own fields (Connection, Header Manager, cache, Cookie); copied, not changed
     * @param body null for a request without an entity (GET, HEAD, OPTIONS, TRACE)
     * @param authorization the Authorization value to send last, or null
     * @throws URISyntaxException when the URL is no valid URI (stock fails such a sample the same way)
     */
    static OutgoingRequest of(String method, URL url, HeaderFields own, RequestBody body, String authorization)
            throws URISyntaxException {
        return of(method, url, targetOf(url), own, body, authorization);
    }

    /** The request-target HttpClient 4 sends for {@code url}: path and query, normalized, without the fragment. */
    static String targetOf(URL url) throws URISyntaxException {
        URI uri = url.toURI();
        String target = URIUtils.rewriteURI(uri, null, URIUtils.DROP_FRAGMENT_AND_NORMALIZE).toASCIIString();
        return target.isEmpty() ? "/" : target;
    }

    /** As above, with the request-target {@link #targetOf} gave for {@code url} (see {@link RequestTargets}). */
    static OutgoingRequest of(String method, URL url, String target, HeaderFields own, RequestBody body,
                              String authorization) {
        HeaderFields h = own.copy();
        if (body != null) {
            h.set(HTTPConstants.HEADER_CONTENT_LENGTH, Integer.toString(body.bytes().length));
            if (body.contentType() != null && !h.contains(HTTPConstants.HEADER_CONTENT_TYPE)) {
                h.add(HTTPConstants.HEADER_CONTENT_TYPE, body.contentType());
            }
        }
        if (!h.contains(HTTPConstants.HEADER_HOST)) {
            h.add(HTTPConstants.HEADER_HOST, url.getPort() == -1 ? url.getHost() : url.getHost() + ':' + url.getPort());
        }
        if (!h.contains(HTTPConstants.HEADER_CONNECTION)) {
            h.add(HTTPConstants.HEADER_CONNECTION, HTTPConstants.KEEP_ALIVE);
        }
        if (!NO_DEFAULT_USER_AGENT && !h.contains("User-Agent")) {
            h.add("User-Agent", USER_AGENT);
        }
        if (authorization != null && !h.contains(HTTPConstants.HEADER_AUTHORIZATION)) {
            h.add(HTTPConstants.HEADER_AUTHORIZATION, authorization);
        }
        return new OutgoingRequest(method, url, target, h, body);
    }

    /** Request line, fields and body. Field values are written as ISO-8859-1, as HttpClient 4 does by default. */
    byte[] encode() {
        if (encoded == null) {
            encoded = encodeNow();
        }
        return encoded;
    }

    /** Written straight into one array when every character is ISO-8859-1, as nearly always. */
    private byte[] encodeNow() {
        byte[] b = body == null ? NO_BYTES : body.bytes();
        int length = method.length() + target.length() + 14 + b.length;
        for (int i = 0; i < headers.size(); i++) {
            length += headers.name(i).length() + headers.value(i).length() + 4;
        }
        byte[] out = new byte[length];
        int at = latin1(method, out, 0);
        at = latin1(" ", out, at);
        at = latin1(target, out, at);
        at = latin1(" HTTP/1.1\r\n", out, at);
        for (int i = 0; i < headers.size() && at >= 0; i++) {
            at = latin1(headers.name(i), out, at);
            at = latin1(": ", out, at);
            at = latin1(headers.value(i), out, at);
            at = latin1("\r\n", out, at);
        }
        if (at < 0) {
            return encodeByCharset();
        }
        out[at++] = '\r';
        out[at++] = '\n';
        System.arraycopy(b, 0, out, at, b.length);
        return out;
    }

    /** Copies {@code s} to {@code out} at {@code at}; returns where it ended, or -1 if a character is not Latin-1. */
    private static int latin1(String s, byte[] out, int at) {
        if (at < 0) {
            return -1;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c > 0xFF) {
                return -1;
            }
            out[at++] = (byte) c;
        }
        return at;
    }

    /** The general way, with the charset's replacement of what ISO-8859-1 cannot encode. */
    byte[] encodeByCharset() {
        StringBuilder head = new StringBuilder(64 + 40 * headers.size());
        head.append(method).append(' ').append(target).append(" HTTP/1.1\r\n");
        for (int i = 0; i < headers.size(); i++) {
            head.append(headers.name(i)).append(": ").append(headers.value(i)).append("\r\n");
        }
        head.append("\r\n");
        byte[] h = head.toString().getBytes(StandardCharsets.ISO_8859_1);
        if (body == null || body.bytes().length == 0) {
            return h;
        }
        byte[] all = new byte[h.length + body.bytes().length];
        System.arraycopy(h, 0, all, 0, h.length);
        System.arraycopy(body.bytes(), 0, all, h.length, body.bytes().length);
        return all;
    }

    String method() {
        return method;
    }

    URL url() {
        return url;
    }

    /** The request-target of the request line: path and query, as stock sends them. */
    String target() {
        return target;
    }

    HeaderFields headers() {
        return headers;
    }

    RequestBody body() {
        return body;
    }

    boolean head() {
        return HTTPConstants.HEAD.equals(method);
    }

    /** Whether the connection may stay open after this exchange, as far as the request is concerned. */
    boolean keepAlive() {
        return !HTTPConstants.CONNECTION_CLOSE.equalsIgnoreCase(headers.first(HTTPConstants.HEADER_CONNECTION));
    }
}
