/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine;

/**
 * A complete response as the result filler reads it, whatever protocol carried it: HTTP/1.1 ({@code ResponseFramer})
 * or HTTP/2 ({@code Http2Response}). The header block is the text shown as the result's response headers, its first
 * line the status line ({@code HTTP/1.1 200 OK}, {@code HTTP/2 200}).
 */
public interface ReceivedResponse {
    int status();

    /** Whether the reason phrase equals {@code candidate} (compared without building a string). */
    boolean reasonEquals(String candidate);

    String reason();

    /** The header text as bytes (ISO-8859-1), valid in {@code [0, headerBlockLength())}. */
    byte[] headerBlock();

    int headerBlockLength();

    boolean contentTypeEquals(String candidate);

    /** The Content-Type value, or null when the response has none. */
    String contentType();

    /** The kept body's buffer, valid in {@code [0, keptBodyLength())}. */
    byte[] keptBodyBuffer();

    int keptBodyLength();

    /**
     * The kept body as an array the caller may keep and must not change: a copy, or a body over 64 KiB taken whole
     * (the response then holds none of it, and {@link #keptBodyLength()} is 0).
     */
    byte[] keptBody();

    /** Whether body bytes arrived that the kept body lacks, because they were over the keep limit. */
    boolean bodyCut();

    /** Header bytes as received (HTTP/2: the compressed header block). */
    long headerBytes();

    /** Body bytes as received (HTTP/2: the DATA frames' payload). */
    long bodyBytes();
}
