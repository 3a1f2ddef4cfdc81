/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine;

import io.netty.buffer.ByteBuf;

import java.net.ProtocolException;
import java.nio.charset.StandardCharsets;

/**
 * Finds where one HTTP/1.1 response ends in a byte stream, reading only what framing needs (status, Content-Length,
 * Transfer-Encoding, Connection, Content-Type). One instance per connection, reset before each response; it is fed
 * whatever the socket delivered and consumes bytes up to the end of the current response only, so a pipelined
 * response stays in the buffer for the next call. Not thread-safe: the connection's event loop owns it.
 */
public final class ResponseFramer {
    private static final int STATUS_LINE = 0;
    private static final int HEADERS = 1;
    private static final int FIXED_BODY = 2;
    private static final int CHUNK_SIZE = 3;
    private static final int CHUNK_EXTENSION = 4;
    private static final int CHUNK_DATA = 5;
    private static final int CHUNK_DATA_END = 6;
    private static final int TRAILERS = 7;
    private static final int UNTIL_CLOSE = 8;
    private static final int DONE = 9;

    /** A larger header block is more likely a runaway stream than a real response. */
    static final int MAX_HEADER_BYTES = 64 * 1024;

    private int state;
    private boolean headRequest;
    private int keepLimit;

    private byte[] headerBlock = new byte[512];
    private int headerLen;
    private int lineStart;

    private int version;
    private int status;
    private int reasonStart;
    private int reasonEnd;
    private int contentTypeStart;
    private int contentTypeEnd;
    private long contentLength;
    private boolean chunked;
    private boolean connectionClose;
    private boolean connectionKeepAlive;
    private boolean closeDelimited;

    private long remaining;
    private long chunkSize;
    private int trailerLineLen;
    private boolean sawChunkDigit;

    private long headerBytes;
    private long bodyBytes;
    private byte[] body = new byte[64];
    private int bodyLen;

    /** Prepares for the next response. A HEAD request's response never has a body, whatever its headers say. */
    public void reset(boolean headRequest, int keepLimit) {
        this.headRequest = headRequest;
        this.keepLimit = Math.max(0, keepLimit);
        state = STATUS_LINE;
        headerBytes = 0;
        bodyBytes = 0;
        bodyLen = 0;
        startHeaderBlock();
    }

    private void startHeaderBlock() {
        headerLen = 0;
        lineStart = 0;
        version = 0;
        status = 0;
        reasonStart = reasonEnd = 0;
        contentTypeStart = contentTypeEnd = 0;
        contentLength = -1;
        chunked = false;
        connectionClose = false;
        connectionKeepAlive = false;
    }

    /**
     * Consumes bytes of the current response from {@code in}.
     *
     * @return true once the response is complete; bytes after its end are left in {@code in}
     * @throws ProtocolException when the bytes are not an HTTP/1.x response
     */
    public boolean feed(ByteBuf in) throws ProtocolException {
        while (in.isReadable()) {
            switch (state) {
                case STATUS_LINE, HEADERS -> readHeaderBytes(in);
                case FIXED_BODY -> {
                    remaining -= keepBody(in, (int) Math.min(remaining, in.readableBytes()));
                    if (remaining == 0) {
                        state = DONE;
                    }
                }
                case CHUNK_SIZE -> readChunkSize(in);
                case CHUNK_EXTENSION, CHUNK_DATA_END -> {
                    int lf = in.indexOf(in.readerIndex(), in.writerIndex(), (byte) '\n');
                    int n = lf < 0 ? in.readableBytes() : lf - in.readerIndex() + 1;
                    skipBody(in, n);
                    if (lf >= 0) {
                        if (state == CHUNK_DATA_END) {
                            state = CHUNK_SIZE;
                        } else {
                            endChunkSizeLine();
                        }
                    }
                }
                case CHUNK_DATA -> {
                    remaining -= keepBody(in, (int) Math.min(remaining, in.readableBytes()));
                    if (remaining == 0) {
                        state = CHUNK_DATA_END;
                    }
                }
                case TRAILERS -> readTrailerByte(in);
                case UNTIL_CLOSE -> keepBody(in, in.readableBytes());
                default -> {
                    return true;
                }
            }
            if (state == DONE) {
                return true;
            }
        }
        return state == DONE;
    }

    /** The peer closed the connection: completes a close-delimited body; false when the response is cut short. */
    public boolean closeReceived() {
        if (state == UNTIL_CLOSE) {
            state = DONE;
        }
        return state == DONE;
    }

    public boolean isComplete() {
        return state == DONE;
    }

    /** True once at least one byte of the response arrived (a stale keep-alive connection delivers none). */
    public boolean started() {
        return headerBytes > 0;
    }

    /** Whether the connection may carry another request after this response. */
    public boolean reusable() {
        return state == DONE && !connectionClose && (version >= 11 || connectionKeepAlive) && status != 101
                && !closeDelimited;
    }

    /**
     * Copies the readable bytes (at most up to the header size limit) into the header block at once and parses every
     * complete line among them; bytes after the block's empty line stay in {@code in}. One copy per read instead of
     * one per line: a typical response head has ten lines.
     */
    private void readHeaderBytes(ByteBuf in) throws ProtocolException {
        int from = in.readerIndex();
        int n = Math.min(in.readableBytes(), MAX_HEADER_BYTES - headerLen);
        if (n <= 0) {
            throw tooLarge();
        }
        if (headerLen + n > headerBlock.length) {
            byte[] bigger = new byte[Math.max(headerBlock.length * 2, headerLen + n)];
            System.arraycopy(headerBlock, 0, bigger, 0, headerLen);
            headerBlock = bigger;
        }
        in.getBytes(from, headerBlock, headerLen, n);
        int first = headerLen;
        int limit = first + n;
        byte[] b = headerBlock;
        for (int i = first; i < limit; i++) {
            if (b[i] != '\n') {
                continue;
            }
            headerLen = i + 1;
            int end = i;
            if (end > lineStart && b[end - 1] == '\r') {
                end--;
            }
            if (state == STATUS_LINE) {
                parseStatusLine(lineStart, end);
                state = HEADERS;
            } else if (end == lineStart) {
                int consumed = i + 1 - first;
                headerBytes += consumed;
                in.readerIndex(from + consumed);
                endOfHeaders(); // an interim (1xx) response starts a new block: parse its bytes in the next call
                return;
            } else {
                parseHeader(lineStart, end);
            }
            lineStart = headerLen;
        }
        headerLen = limit;
        headerBytes += n;
        in.readerIndex(from + n);
        if (headerLen >= MAX_HEADER_BYTES) {
            throw tooLarge();
        }
    }

    private static ProtocolException tooLarge() {
        return new ProtocolException("Response header block larger than " + MAX_HEADER_BYTES + " bytes");
    }

    private void parseStatusLine(int from, int end) throws ProtocolException {
        byte[] b = headerBlock;
        if (end - from < 12 || b[from] != 'H' || b[from + 1] != 'T' || b[from + 2] != 'T' || b[from + 3] != 'P'
                || b[from + 4] != '/' || b[from + 6] != '.' || b[from + 8] != ' ') {
            throw new ProtocolException("Not an HTTP/1.x status line: \"" + text(from, Math.min(end, from + 80)) + '"');
        }
        version = digit(b[from + 5]) * 10 + digit(b[from + 7]);
        status = digit(b[from + 9]) * 100 + digit(b[from + 10]) * 10 + digit(b[from + 11]);
        if (version < 10 || status < 100) {
            throw new ProtocolException("Not an HTTP/1.x status line: \"" + text(from, end) + '"');
        }
        reasonStart = Math.min(from + 13, end);
        reasonEnd = end;
    }

    private static int digit(byte b) {
        return b >= '0' && b <= '9' ? b - '0' : -1000;
    }

    private void parseHeader(int from, int end) throws ProtocolException {
        byte[] b = headerBlock;
        int colon = from;
        while (colon < end && b[colon] != ':') {
            colon++;
        }
        if (colon == end) {
            throw new ProtocolException("Malformed response header line: \"" + text(from, end) + '"');
        }
        int vs = colon + 1;
        while (vs < end && (b[vs] == ' ' || b[vs] == '\t')) {
            vs++;
        }
        int ve = end;
        while (ve > vs && (b[ve - 1] == ' ' || b[ve - 1] == '\t')) {
            ve--;
        }
        int nameLen = colon - from;
        if (nameLen == 14 && nameIs(from, "content-length")) {
            contentLength = parseLength(vs, ve);
        } else if (nameLen == 17 && nameIs(from, "transfer-encoding")) {
            chunked = containsIgnoreCase(vs, ve, "chunked");
        } else if (nameLen == 10 && nameIs(from, "connection")) {
            connectionClose |= containsIgnoreCase(vs, ve, "close");
            connectionKeepAlive |= containsIgnoreCase(vs, ve, "keep-alive");
        } else if (nameLen == 12 && nameIs(from, "content-type")) {
            contentTypeStart = vs;
            contentTypeEnd = ve;
        }
    }

    private long parseLength(int from, int end) throws ProtocolException {
        long v = 0;
        if (from == end) {
            throw new ProtocolException("Empty Content-Length");
        }
        for (int i = from; i < end; i++) {
            int d = digit(headerBlock[i]);
            if (d < 0 || v > Long.MAX_VALUE / 10) {
                throw new ProtocolException("Invalid Content-Length: \"" + text(from, end) + '"');
            }
            v = v * 10 + d;
        }
        return v;
    }

    /** {@code lower} is ASCII lower case; header names compare case-insensitively (RFC 9110). */
    private boolean nameIs(int from, String lower) {
        for (int i = 0; i < lower.length(); i++) {
            if ((headerBlock[from + i] | 0x20) != lower.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private boolean containsIgnoreCase(int from, int end, String lower) {
        int n = lower.length();
        for (int i = from; i + n <= end; i++) {
            int j = 0;
            while (j < n && (headerBlock[i + j] | 0x20) == lower.charAt(j)) {
                j++;
            }
            if (j == n) {
                return true;
            }
        }
        return false;
    }

    private void endOfHeaders() {
        closeDelimited = false;
        if (status < 200 && status != 101) {
            // Interim response (100 Continue, 103 Early Hints): the final response follows on the same stream.
            state = STATUS_LINE;
            startHeaderBlock();
            return;
        }
        if (headRequest || status == 204 || status == 304 || status == 101) {
            state = DONE;
        } else if (chunked) {
            state = CHUNK_SIZE;
            chunkSize = 0;
            sawChunkDigit = false;
        } else if (contentLength >= 0) {
            remaining = contentLength;
            state = contentLength == 0 ? DONE : FIXED_BODY;
        } else {
            closeDelimited = true;
            state = UNTIL_CLOSE;
        }
    }

    private void readChunkSize(ByteBuf in) throws ProtocolException {
        byte b = in.readByte();
        bodyBytes++;
        int hex = hexValue(b);
        if (hex >= 0) {
            if (chunkSize > (Long.MAX_VALUE >> 4)) {
                throw new ProtocolException("Chunk size too large");
            }
            chunkSize = (chunkSize << 4) | hex;
            sawChunkDigit = true;
        } else if (b == '\n') {
            endChunkSizeLine();
        } else if (b == ';' || b == ' ' || b == '\t') {
            state = CHUNK_EXTENSION;
        } else if (b != '\r') {
            throw new ProtocolException("Invalid chunk size byte 0x" + Integer.toHexString(b & 0xff));
        }
    }

    private void endChunkSizeLine() throws ProtocolException {
        if (!sawChunkDigit) {
            throw new ProtocolException("Missing chunk size");
        }
        if (chunkSize == 0) {
            state = TRAILERS;
            trailerLineLen = 0;
        } else {
            remaining = chunkSize;
            state = CHUNK_DATA;
        }
        chunkSize = 0;
        sawChunkDigit = false;
    }

    private static int hexValue(byte b) {
        if (b >= '0' && b <= '9') {
            return b - '0';
        }
        int l = b | 0x20;
        return l >= 'a' && l <= 'f' ? l - 'a' + 10 : -1;
    }

    private void readTrailerByte(ByteBuf in) {
        byte b = in.readByte();
        bodyBytes++;
        if (b == '\n') {
            if (trailerLineLen == 0) {
                state = DONE;
            }
            trailerLineLen = 0;
        } else if (b != '\r') {
            trailerLineLen++;
        }
    }

    /** Counts n body bytes and copies only those that still fit under the kept limit. */
    private int keepBody(ByteBuf in, int n) {
        int copy = Math.min(n, keepLimit - bodyLen);
        if (copy > 0) {
            if (bodyLen + copy > body.length) {
                byte[] bigger = new byte[Math.min(keepLimit, Math.max(body.length * 2, bodyLen + copy))];
                System.arraycopy(body, 0, bigger, 0, bodyLen);
                body = bigger;
            }
            in.readBytes(body, bodyLen, copy);
            bodyLen += copy;
        }
        in.skipBytes(n - Math.max(copy, 0));
        bodyBytes += n;
        return n;
    }

    private void skipBody(ByteBuf in, int n) {
        in.skipBytes(n);
        bodyBytes += n;
    }

    private String text(int from, int end) {
        return new String(headerBlock, from, end - from, StandardCharsets.ISO_8859_1);
    }

    public int status() {
        return status;
    }

    /** 11 for HTTP/1.1, 10 for HTTP/1.0. */
    public int version() {
        return version;
    }

    public long headerBytes() {
        return headerBytes;
    }

    public long bodyBytes() {
        return bodyBytes;
    }

    public long totalBytes() {
        return headerBytes + bodyBytes;
    }

    /** The kept body bytes (decoded from chunks), a fresh array the caller may keep. */
    public byte[] keptBody() {
        byte[] copy = new byte[bodyLen];
        System.arraycopy(body, 0, copy, 0, bodyLen);
        return copy;
    }

    public int keptBodyLength() {
        return bodyLen;
    }

    /** The kept body bytes in place (valid until the next {@link #reset}); {@link #keptBodyLength()} of them. */
    public byte[] keptBodyBuffer() {
        return body;
    }

    /** Raw header block of the final response (status line, headers and the blank line) as received. */
    public byte[] headerBlock() {
        return headerBlock;
    }

    public int headerBlockLength() {
        return headerLen;
    }

    /** Compares the reason phrase with {@code candidate} without building a string. */
    public boolean reasonEquals(String candidate) {
        return regionEquals(reasonStart, reasonEnd, candidate);
    }

    public String reason() {
        return text(reasonStart, reasonEnd);
    }

    public boolean contentTypeEquals(String candidate) {
        return regionEquals(contentTypeStart, contentTypeEnd, candidate);
    }

    /** The Content-Type header value, or null when the response had none. */
    public String contentType() {
        return contentTypeEnd > contentTypeStart ? text(contentTypeStart, contentTypeEnd) : null;
    }

    private boolean regionEquals(int from, int end, String candidate) {
        if (candidate == null || candidate.length() != end - from) {
            return false;
        }
        for (int i = 0; i < candidate.length(); i++) {
            if (headerBlock[from + i] != candidate.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** Where the response stood when the stream ended, for the premature-close message. */
    public String progress() {
        return switch (state) {
            case STATUS_LINE -> headerBytes == 0 ? "before any byte of the response"
                    : "inside the status line after " + headerBytes + " bytes";
            case HEADERS -> "inside the response headers after " + headerBytes + " bytes";
            case FIXED_BODY -> "after " + bodyBytes + " of " + contentLength + " body bytes";
            case TRAILERS -> "inside the chunked trailers";
            default -> "inside the chunked body after " + bodyBytes + " bytes";
        };
    }
}
