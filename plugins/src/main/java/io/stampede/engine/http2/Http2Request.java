/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.http2;

import io.stampede.engine.PreparedRequest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Headers;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A request ready to send as an HTTP/2 stream many times: the HTTP/1.1 text both Stampede samplers build (the RAW
 * sampler's text as written, the HTTP sampler's from its fields) read once into pseudo-headers ({@code :method},
 * {@code :scheme}, {@code :authority} from Host, {@code :path}), lower-cased header fields without the
 * connection-specific ones HTTP/2 forbids (RFC 9113 §8.2.2), and the body. The header object is only read after
 * this, so streams on every event loop share it. The HTTP/1.1 form stays at hand for a connection whose server
 * chose HTTP/1.1 in ALPN.
 */
public final class Http2Request {
    /** Connection-specific fields: meaningless (and a protocol error) in HTTP/2. */
    private static final Set<String> HOP_BY_HOP = Set.of("connection", "keep-alive", "proxy-connection",
            "transfer-encoding", "upgrade", "host", "content-length");

    private final PreparedRequest http1;
    private final Http2Headers headers;
    private final ByteBuf body;

    private Http2Request(PreparedRequest http1, Http2Headers headers, ByteBuf body) {
        this.http1 = http1;
        this.headers = headers;
        this.body = body;
    }

    /**
     * Reads {@code request}'s HTTP/1.1 text.
     *
     * @param field the property the text came from, named in errors
     * @param authority {@code :authority} when the text has no Host header (host[:port])
     * @throws IllegalArgumentException naming {@code field} and the fix when the text cannot be an HTTP/2 request
     */
    public static Http2Request of(PreparedRequest request, String field, boolean tls, String authority) {
        String text = request.text();
        int headEnd = text.indexOf("\r\n\r\n");
        int sep = 4;
        if (headEnd < 0) {
            headEnd = text.indexOf("\n\n");
            sep = 2;
        }
        String head = headEnd < 0 ? text : text.substring(0, headEnd);
        String bodyText = headEnd < 0 ? "" : text.substring(headEnd + sep);
        String[] lines = head.split("\r?\n");
        String[] words = lines[0].trim().split("[ \t]+");
        if (words.length < 2 || words[0].isEmpty()) {
            throw new IllegalArgumentException(field + ": the first line must be a request line such as "
                    + "'GET /path HTTP/1.1', found '" + lines[0].trim() + "'");
        }
        String path = words[1];
        if (path.startsWith("http://") || path.startsWith("https://")) {
            int slash = path.indexOf('/', path.indexOf("//") + 2);
            path = slash < 0 ? "/" : path.substring(slash);
        }
        Http2Headers h = new DefaultHttp2Headers(true, lines.length + 4)
                .method(words[0])
                .scheme(tls ? "https" : "http")
                .path(path);
        String host = null;
        for (int i = 1; i < lines.length; i++) {
            String line = lines[i];
            if (line.isBlank()) {
                continue;
            }
            int colon = line.indexOf(':');
            if (colon <= 0) {
                throw new IllegalArgumentException(field + ": '" + line.strip() + "' is not a header; write one "
                        + "'Name: value' per line");
            }
            String value = addField(h, field, line.substring(0, colon), line.substring(colon + 1).strip());
            if (value != null) {
                host = value;
            }
        }
        return finish(request, h, host != null ? host : authority, bodyText.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * A request built from its parts rather than from text (JMeter's HTTP Request builds method, path, fields and a
     * body that may be binary): the fields go through the same rules as the text's, the body as it is.
     *
     * @param http1 the same request as HTTP/1.1 bytes, sent instead if the server chooses HTTP/1.1 in ALPN
     * @param field what the fields came from, named in errors
     * @param authority {@code :authority} when the fields have no Host
     * @param names the header field names in order, {@code values} their values
     * @throws IllegalArgumentException naming {@code field} when a field cannot go in HTTP/2
     */
    public static Http2Request of(PreparedRequest http1, String field, String method, boolean tls, String path,
                                  String authority, List<String> names, List<String> values, byte[] body) {
        Http2Headers h = new DefaultHttp2Headers(true, names.size() + 4).method(method).scheme(tls ? "https" : "http")
                .path(path);
        String host = null;
        for (int i = 0; i < names.size(); i++) {
            String value = addField(h, field, names.get(i), values.get(i));
            if (value != null) {
                host = value;
            }
        }
        return finish(http1, h, host != null ? host : authority, body);
    }

    /**
     * Adds one request field as HTTP/2 sends it: name lower-cased, connection-specific fields dropped.
     *
     * @return the value when the field is Host (it becomes {@code :authority}), else null
     */
    private static String addField(Http2Headers h, String field, String rawName, String value) {
        String name = rawName.strip().toLowerCase(Locale.ROOT);
        if (name.equals("transfer-encoding") && value.toLowerCase(Locale.ROOT).contains("chunked")) {
            throw new IllegalArgumentException(field + ": 'Transfer-Encoding: chunked' has no meaning in "
                    + "HTTP/2; send the body as it is, with or without Content-Length");
        }
        if (name.equals("te") && !value.equalsIgnoreCase("trailers")) {
            return null; // only "TE: trailers" is allowed in HTTP/2
        }
        if (!HOP_BY_HOP.contains(name)) {
            h.add(name, value);
        }
        return name.equals("host") ? value : null;
    }

    private static Http2Request finish(PreparedRequest http1, Http2Headers h, String authority, byte[] raw) {
        h.authority(authority);
        if (raw.length > 0) {
            h.setInt("content-length", raw.length);
        }
        // A heap buffer that writes cannot release: the garbage collector frees it with the request.
        return new Http2Request(http1, h, Unpooled.unreleasableBuffer(Unpooled.wrappedBuffer(raw)));
    }

    /**
     * The header fields as sent, pseudo-headers first, one {@code name: value} line each (as JMeter shows request
     * headers), without the field named {@code leftOut} (lower case; null: none).
     */
    public String headerText(String leftOut) {
        StringBuilder b = new StringBuilder(32 * headers.size());
        for (Map.Entry<CharSequence, CharSequence> e : headers) {
            if (leftOut == null || !leftOut.contentEquals(e.getKey())) {
                b.append(e.getKey()).append(": ").append(e.getValue()).append('\n');
            }
        }
        return b.toString();
    }

    /** The HTTP/1.1 form: the result's URL and sampler data, and what a connection that fell back sends. */
    public PreparedRequest http1() {
        return http1;
    }

    Http2Headers headers() {
        return headers;
    }

    boolean hasBody() {
        return body.isReadable();
    }

    /** A duplicate of the body for one stream (the original is never released by a write). */
    ByteBuf body() {
        return body.duplicate();
    }

    boolean head() {
        return http1.head();
    }
}
