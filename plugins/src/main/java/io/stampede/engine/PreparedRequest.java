/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine;

import io.stampede.engine.http1.ThreadIoConnection;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.net.MalformedURLException;
import java.net.URL;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * A request ready to send many times: its bytes are encoded once into a direct buffer and each send writes a retained
 * duplicate, so an unchanged request costs no encoding and no copy. Samplers keep one while their inputs are equal.
 */
public final class PreparedRequest {
    private final String text;
    private final ByteBuf bytes;
    private final boolean head;
    private final URL url;

    private PreparedRequest(String text, ByteBuf bytes, boolean head, URL url) {
        this.text = text;
        this.bytes = bytes;
        this.head = head;
        this.url = url;
    }

    /**
     * @param text the complete request (request line, headers, blank line, body)
     * @param target the request-target of the request line, used for the result's URL
     * @param tls whether it goes over TLS (https in the URL)
     */
    public static PreparedRequest of(String text, String method, String target, String host, int port, boolean tls) {
        byte[] raw = text.getBytes(StandardCharsets.UTF_8);
        ByteBuf buf = Unpooled.directBuffer(raw.length).writeBytes(raw);
        return new PreparedRequest(text, buf, "HEAD".equalsIgnoreCase(method), urlOf(target, host, port, tls));
    }

    /**
     * A request already encoded (JMeter's HTTP Request builds head and body itself: a body may be binary, the head is
     * ISO-8859-1), sent once. The array is wrapped, not copied (the caller must not change it): a direct buffer
     * allocated and freed per sample cost more than the copy into the JDK's per-thread direct buffer (blocking writes)
     * or Netty's pooled one (the event loop) that a heap buffer gets. {@link #text()} decodes the bytes only when asked.
     */
    public static PreparedRequest ofBytes(byte[] raw, boolean head, URL url) {
        return new PreparedRequest(null, Unpooled.wrappedBuffer(raw), head, url);
    }

    private static URL urlOf(String target, String host, int port, boolean tls) {
        try {
            if (target.startsWith("http://") || target.startsWith("https://")) {
                return new URL(target);
            }
            return new URL(tls ? "https" : "http", host, port, target.startsWith("/") ? target : "/" + target);
        } catch (MalformedURLException e) {
            return null;
        }
    }

    /** A duplicate sharing the encoded bytes; the receiver releases it. */
    public ByteBuf retainedBytes() {
        return bytes.retainedDuplicate();
    }

    /**
     * A view of the encoded bytes for a JMeter thread that writes them itself ({@link ThreadIoConnection}): those of
     * {@link #of} are direct, which a channel writes without copying them into a temporary buffer first.
     */
    public ByteBuffer wireBuffer() {
        return bytes.nioBuffer();
    }

    public int length() {
        return bytes.readableBytes();
    }

    public String text() {
        return text != null ? text : bytes.toString(bytes.readerIndex(), bytes.readableBytes(),
                StandardCharsets.ISO_8859_1);
    }

    public boolean head() {
        return head;
    }

    /** The URL shown in results, or null when host and target do not form one. */
    public URL url() {
        return url;
    }

    /** Frees the encoded bytes once no send still holds a duplicate. */
    public void release() {
        bytes.release();
    }
}
