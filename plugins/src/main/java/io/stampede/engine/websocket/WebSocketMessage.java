/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.websocket;

import java.nio.charset.StandardCharsets;

/**
 * One whole received message (its fragments joined), copied off the wire so no buffer is held, with the time its
 * first byte was read. Its text is decoded at most once, when a matcher or a result asks for it.
 */
public final class WebSocketMessage {
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private final boolean text;
    private final byte[] data;
    private final long firstByteNanos;
    private String decoded;

    public WebSocketMessage(boolean text, byte[] data, long firstByteNanos) {
        this.text = text;
        this.data = data;
        this.firstByteNanos = firstByteNanos;
    }

    /** A text frame (UTF-8) rather than binary. */
    public boolean isText() {
        return text;
    }

    /** The payload; not copied: read it, never change it. */
    public byte[] data() {
        return data;
    }

    public long firstByteNanos() {
        return firstByteNanos;
    }

    /** The text of a text message; a binary message as lower-case hex, so the same matchers apply to both. */
    public String text() {
        String s = decoded;
        if (s == null) {
            s = text ? new String(data, StandardCharsets.UTF_8) : hex(data);
            decoded = s;
        }
        return s;
    }

    static String hex(byte[] b) {
        char[] c = new char[b.length * 2];
        for (int i = 0; i < b.length; i++) {
            c[2 * i] = HEX[(b[i] >> 4) & 0xf];
            c[2 * i + 1] = HEX[b[i] & 0xf];
        }
        return new String(c);
    }
}
