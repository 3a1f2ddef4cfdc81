/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.http2;

import io.stampede.engine.KeptBody;
import io.stampede.engine.ReceivedResponse;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http2.Http2Headers;

import java.util.Arrays;
import java.util.Map;

/**
 * One HTTP/2 stream's response, filled on the event loop: the status, the header fields as the text JMeter shows
 * ({@code HTTP/2 200} and one {@code name: value} line per field), the kept part of the body, and the bytes as
 * received: the compressed header block(s) and the DATA frames' payload. HTTP/2 has no reason phrase; the standard
 * one for the status is shown. Reused for the stream slot's life, so a response allocates little.
 */
public final class Http2Response implements ReceivedResponse {
    private int status;
    private String reason = "";
    private byte[] headerBlock = new byte[256];
    private int headerLen;
    private String contentType;
    private String lastContentType;
    private final KeptBody body = new KeptBody();
    private int keepLimit;
    private long headerBytes;
    private long bodyBytes;
    private boolean headersSeen;
    private Http2Headers lastHead;
    private int lastHeadStatus;
    private int lastHeadLen;
    private String lastHeadContentType;

    void reset(int keepLimit) {
        this.keepLimit = Math.max(0, keepLimit);
        status = 0;
        headerLen = 0;
        contentType = null;
        body.clear();
        headerBytes = 0;
        bodyBytes = 0;
        headersSeen = false;
    }

    /** A HEADERS frame's fields: the first final one is the response head, later ones trailers (not shown). */
    void headers(Http2Headers h) {
        CharSequence s = h.status();
        if (headersSeen || s == null) {
            return;
        }
        if (h == lastHead) {
            // The connection's decoder answered a block equal to the last one with the same fields
            // (RepeatedHeaderBlockDecoder), and this slot's text of them is still in headerBlock.
            headersSeen = true;
            status = lastHeadStatus;
            headerLen = lastHeadLen;
            contentType = lastHeadContentType;
            return;
        }
        int code = parseStatus(s);
        if (code >= 100 && code < 200) {
            return; // interim (100 Continue, 103 Early Hints): the final head follows
        }
        headersSeen = true;
        status = code;
        reason = HttpResponseStatus.valueOf(code).reasonPhrase();
        headerLen = 0;
        append("HTTP/2 ");
        append(s);
        append("\r\n");
        for (Map.Entry<CharSequence, CharSequence> e : h) {
            CharSequence name = e.getKey();
            if (name.length() > 0 && name.charAt(0) == ':') {
                continue;
            }
            append(name);
            append(": ");
            append(e.getValue());
            append("\r\n");
            if (contentType == null && name.length() == 12 && "content-type".contentEquals(name)) {
                CharSequence v = e.getValue();
                // The slot's last value again (the usual case): no new String per response.
                contentType = lastContentType != null && lastContentType.contentEquals(v) ? lastContentType
                        : v.toString();
                lastContentType = contentType;
            }
        }
        append("\r\n");
        lastHead = h;
        lastHeadStatus = status;
        lastHeadLen = headerLen;
        lastHeadContentType = contentType;
    }

    private static int parseStatus(CharSequence s) {
        if (s.length() != 3) {
            return 0;
        }
        int n = 0;
        for (int i = 0; i < 3; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return 0;
            }
            n = n * 10 + c - '0';
        }
        return n;
    }

    private void append(CharSequence cs) {
        int n = cs.length();
        if (headerLen + n > headerBlock.length) {
            headerBlock = Arrays.copyOf(headerBlock, Math.max(headerLen + n, headerBlock.length * 2));
        }
        for (int i = 0; i < n; i++) {
            headerBlock[headerLen++] = (byte) cs.charAt(i);
        }
    }

    /** DATA payload: counted whole, kept up to the limit. */
    void data(ByteBuf data, int padding) {
        int n = data.readableBytes();
        bodyBytes += n + padding;
        body.add(data, n, keepLimit);
    }

    /** A HEADERS or CONTINUATION frame's payload length, counted as header bytes received. */
    void headerBlockBytes(int n) {
        headerBytes += n;
    }

    /** Whether the final response head arrived (a stream ended before it is a protocol error). */
    boolean complete() {
        return headersSeen;
    }

    @Override
    public int status() {
        return status;
    }

    @Override
    public boolean reasonEquals(String candidate) {
        return reason.equals(candidate);
    }

    @Override
    public String reason() {
        return reason;
    }

    @Override
    public byte[] headerBlock() {
        return headerBlock;
    }

    @Override
    public int headerBlockLength() {
        return headerLen;
    }

    @Override
    public boolean contentTypeEquals(String candidate) {
        return contentType == null ? candidate == null : contentType.equals(candidate);
    }

    @Override
    public String contentType() {
        return contentType;
    }

    @Override
    public byte[] keptBodyBuffer() {
        return body.buffer();
    }

    @Override
    public int keptBodyLength() {
        return body.length();
    }

    @Override
    public byte[] keptBody() {
        return body.copy();
    }

    /** The body buffer's size now: what this stream slot holds between responses. */
    int keptBodyCapacity() {
        return body.capacity();
    }

    @Override
    public long headerBytes() {
        return headerBytes;
    }

    @Override
    public boolean bodyCut() {
        return body.cut();
    }

    @Override
    public long bodyBytes() {
        return bodyBytes;
    }
}
