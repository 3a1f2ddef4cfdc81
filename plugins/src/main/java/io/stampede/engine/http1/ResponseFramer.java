/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.http1;

import io.stampede.engine.Failures;
import io.stampede.engine.KeptBody;
import io.stampede.engine.PrematureCloseException;
import io.stampede.engine.ReceivedResponse;
import io.netty.buffer.ByteBuf;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.ProtocolException;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Finds where one HTTP/1.1 response ends in a byte stream, reading only what framing needs (status, Content-Length,
 * Transfer-Encoding, Connection, Content-Type). One instance per connection, reset before each response; it is fed
 * whatever the socket delivered and consumes bytes up to the end of the current response only, so a pipelined
 * response stays in the buffer for the next call. Not thread-safe: the connection's event loop owns it.
 *
 * <h2>Framing (RFC 9112 §6.3)</h2>
 * HEAD, 1xx, 204 and 304 responses end with their head (1xx other than 101 are skipped: the final response follows);
 * otherwise a Transfer-Encoding list whose final coding is {@code chunked} frames the body by chunks, any other final
 * coding means the body runs until the server closes, and Content-Length counts only without Transfer-Encoding.
 *
 * <h2>Strict: a {@link ProtocolException} naming what was wrong</h2>
 * A bare CR or a NUL anywhere in the head, chunk lines or trailers; a status line other than
 * {@code HTTP/1.x SP 3DIGIT [SP reason]}; a header line without a colon, with an empty name or a name that is not a
 * token (whitespace inside it included); whitespace-preceded lines right after the status line; a Transfer-Encoding
 * list that is malformed, empty or applies chunked more than once; an invalid or conflicting Content-Length when it
 * frames the body; a chunk line that is not {@code 1*HEXDIG *(BWS ";" BWS token [BWS "=" BWS value])} (junk after the
 * size, an empty extension name, whitespace at the end); chunk data not followed by CRLF; trailer lines as header
 * lines; a head or trailer section over {@value #MAX_HEADER_BYTES} bytes.
 *
 * <h2>Lenient, as the RFC allows</h2>
 * Bare LF line ends; empty lines before a status line (also after a 1xx); no SP after the status code; minor versions
 * above 1.1 read as 1.1; codes outside 100-599 framed as final responses (the sample fails, as for a 5xx); whitespace
 * between a header name and its colon, removed; obs-fold continuation lines, joined; control bytes other than NUL,
 * CR and LF in a value or the reason phrase; repeated identical Content-Length values; Connection elements that are
 * not plain tokens, ignored. A response with both Transfer-Encoding and Content-Length, or Transfer-Encoding in
 * HTTP/1.0, is framed by Transfer-Encoding and its connection is not reused (§6.1, §6.3 item 3).
 */
public final class ResponseFramer implements ReceivedResponse {
    private enum State {
        /** Skips empty lines, then reads the status line. */
        STATUS_LINE,
        HEADERS,
        FIXED_BODY,
        CHUNK_SIZE_LINE,
        CHUNK_DATA,
        /** The CRLF after a chunk's data. */
        CHUNK_DATA_END,
        TRAILERS,
        UNTIL_CLOSE,
        DONE
    }

    /** A larger header block (or trailer section) is more likely a runaway stream than a real response. */
    static final int MAX_HEADER_BYTES = 64 * 1024;
    /** Chunk size lines carry at most a few extensions; a longer one is a broken stream. */
    static final int MAX_CHUNK_LINE = 4096;

    private static final byte[] CONNECTION = ascii("connection");
    private static final byte[] CONTENT_TYPE = ascii("content-type");
    private static final byte[] CONTENT_LENGTH = ascii("content-length");
    private static final byte[] TRANSFER_ENCODING = ascii("transfer-encoding");
    private static final byte[] KEEP_ALIVE = ascii("keep-alive");
    private static final byte[] CLOSE = ascii("close");

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class,
            ByteOrder.LITTLE_ENDIAN);
    private static final long CASE_BITS = 0x2020202020202020L;

    private final TokenList tokens = new TokenList();

    private State state;
    private boolean headRequest;
    private int keepLimit;

    // mutable state of the current head (status line and headers, or an interim response's)
    private byte[] headerBlock = new byte[512];
    private int headerLen;
    private int lineStart;
    /** Where the last CR of the current head line is; a CR not right before the LF is a bare CR. */
    private int crAt;
    private long skippedLineBytes;

    private int version;
    private int status;
    private int reasonStart;
    private int reasonEnd;
    private int contentTypeStart;
    private int contentTypeEnd;
    private boolean contentTypeFolded;
    private long contentLength;
    private String lengthProblem;
    private boolean transferEncoding;
    private int codings;
    private int chunkedCodings;
    private boolean finalCodingChunked;
    private String codingProblem;
    private boolean connectionClose;
    private boolean connectionKeepAlive;
    /** The header line read last, interpreted once the next line shows it is not continued (obs-fold). */
    private int pendingStart = -1;
    private int pendingNameEnd;
    private int pendingColon;
    private int pendingEnd;

    // mutable state of the body
    private boolean closeDelimited;
    private boolean framingSuspect;
    private long remaining;
    private long lastChunkSize;
    private boolean chunkCrSeen;
    private byte[] line = new byte[64];
    private int lineLen;
    private int trailerBytes;
    private boolean trailerLineSeen;

    private long headerBytes;
    private long bodyBytes;
    private final KeptBody body = new KeptBody();

    /** Prepares for the next response. A HEAD request's response never has a body, whatever its headers say. */
    public void reset(boolean headRequest, int keepLimit) {
        this.headRequest = headRequest;
        this.keepLimit = Math.max(0, keepLimit);
        state = State.STATUS_LINE;
        headerBytes = 0;
        bodyBytes = 0;
        body.clear();
        skippedLineBytes = 0;
        closeDelimited = false;
        framingSuspect = false;
        startHeaderBlock();
    }

    private void startHeaderBlock() {
        headerLen = 0;
        lineStart = 0;
        crAt = -1;
        version = 0;
        status = 0;
        reasonStart = reasonEnd = 0;
        contentTypeStart = contentTypeEnd = 0;
        contentTypeFolded = false;
        contentLength = -1;
        lengthProblem = null;
        transferEncoding = false;
        codings = 0;
        chunkedCodings = 0;
        finalCodingChunked = false;
        codingProblem = null;
        connectionClose = false;
        connectionKeepAlive = false;
        pendingStart = -1;
    }

    /**
     * Consumes bytes of the current response from {@code in}.
     *
     * @return true once the response is complete; bytes after its end are left in {@code in}
     * @throws ProtocolException when the bytes are not an HTTP/1.x response (the message says what was wrong)
     */
    public boolean feed(ByteBuf in) throws ProtocolException {
        while (in.isReadable()) {
            switch (state) {
                case STATUS_LINE, HEADERS -> readHeaderBytes(in);
                case FIXED_BODY -> {
                    remaining -= keepBody(in, (int) Math.min(remaining, in.readableBytes()),
                            (int) Math.min(keepLimit, body.length() + remaining));
                    if (remaining == 0) {
                        state = State.DONE;
                    }
                }
                case CHUNK_SIZE_LINE -> {
                    int end = readLine(in, MAX_CHUNK_LINE, "chunk size line");
                    if (end >= 0) {
                        parseChunkSizeLine(end);
                    }
                }
                case CHUNK_DATA -> {
                    remaining -= keepBody(in, (int) Math.min(remaining, in.readableBytes()));
                    if (remaining == 0) {
                        state = State.CHUNK_DATA_END;
                        chunkCrSeen = false;
                    }
                }
                case CHUNK_DATA_END -> readChunkDataEnd(in);
                case TRAILERS -> {
                    int end = readLine(in, MAX_HEADER_BYTES - trailerBytes, "trailer section");
                    if (end >= 0) {
                        parseTrailerLine(end);
                    }
                }
                case UNTIL_CLOSE -> keepBody(in, in.readableBytes());
                case DONE -> {
                    return true;
                }
            }
            if (state == State.DONE) {
                return true;
            }
        }
        return state == State.DONE;
    }

    /** The peer closed the connection: completes a close-delimited body; false when the response is cut short. */
    public boolean closeReceived() {
        if (state == State.UNTIL_CLOSE) {
            state = State.DONE;
        }
        return state == State.DONE;
    }

    public boolean isComplete() {
        return state == State.DONE;
    }

    /** True once at least one byte of the response arrived (a stale keep-alive connection delivers none). */
    public boolean started() {
        return headerBytes > 0;
    }

    /** Whether the connection may carry another request after this response. */
    public boolean reusable() {
        return state == State.DONE && !connectionClose && (version >= 11 || connectionKeepAlive) && status != 101
                && !closeDelimited && !framingSuspect;
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
        int i = first;
        while (i < limit) {
            // Eight bytes at once: jump to the first control byte among them (printable ASCII and obs-text skipped).
            int c;
            if (i + 8 <= limit) {
                long controls = controlBytes((long) LONGS.get(b, i));
                if (controls == 0) {
                    i += 8;
                    continue;
                }
                i += Long.numberOfTrailingZeros(controls) >>> 3;
                c = b[i];
            } else {
                c = b[i];
                if (c > '\r' || c < 0) {
                    i++;
                    continue;
                }
            }
            if (c == '\n') {
                if (lineEnd(in, from, first, i)) {
                    return;
                }
            } else if (c == '\r') {
                if (crAt >= lineStart) {
                    throw bareCr(crAt);
                }
                crAt = i;
            } else if (c == 0) {
                throw new ProtocolException("NUL byte in the response " + where() + " after \""
                        + Ascii.printable(b, lineStart, i) + '"');
            }
            // HTAB and other control bytes: judged by the line's parser
            i++;
        }
        headerLen = limit;
        headerBytes += n;
        in.readerIndex(from + n);
        if (headerLen >= MAX_HEADER_BYTES) {
            throw tooLarge();
        }
    }

    /**
     * A head line ends at {@code lf}; parses it.
     *
     * @return true when the head (or an empty line before it) ended and the caller must stop reading
     */
    private boolean lineEnd(ByteBuf in, int from, int first, int lf) throws ProtocolException {
        int end = lf;
        if (crAt >= lineStart) {
            if (crAt != lf - 1) {
                throw bareCr(crAt);
            }
            end--;
        }
        headerLen = lf + 1;
        if (state == State.STATUS_LINE) {
            if (end == lineStart) {
                skipEmptyLine(in, from, lf + 1 - first);
                return true;
            }
            parseStatusLine(lineStart, end);
            state = State.HEADERS;
        } else if (end == lineStart) {
            int consumed = lf + 1 - first;
            headerBytes += consumed;
            in.readerIndex(from + consumed);
            interpretPendingHeader();
            endOfHeaders(); // an interim (1xx) response starts a new block: parse its bytes in the next call
            return true;
        } else {
            headerLine(lineStart, end);
        }
        lineStart = headerLen;
        return false;
    }

    /**
     * The high bit set in each of the eight bytes (little-endian) that is below 0x0e (NUL to CR); bytes of 0x80 and
     * above never count. A borrow can only mark bytes above a marked one, so the lowest mark is always exact.
     */
    private static long controlBytes(long x) {
        return (x - 0x0e0e0e0e0e0e0e0eL) & ~x & 0x8080808080808080L;
    }

    /** RFC 9112 §2.2: empty lines before a status line are ignored; they are counted but not kept in the block. */
    private void skipEmptyLine(ByteBuf in, int from, int consumed) throws ProtocolException {
        headerBytes += consumed;
        skippedLineBytes += headerLen;
        in.readerIndex(from + consumed);
        if (skippedLineBytes > MAX_HEADER_BYTES) {
            throw new ProtocolException("More than " + MAX_HEADER_BYTES
                    + " bytes of empty lines before the status line");
        }
        headerLen = 0;
        lineStart = 0;
        crAt = -1;
    }

    private String where() {
        return state == State.STATUS_LINE ? "status line" : "headers";
    }

    private ProtocolException bareCr(int at) {
        return new ProtocolException("Bare CR (not followed by LF) in the response " + where() + " after \""
                + Ascii.printable(headerBlock, lineStart, at) + '"');
    }

    private static ProtocolException tooLarge() {
        return new ProtocolException("Response header block larger than " + MAX_HEADER_BYTES + " bytes");
    }

    /** {@code HTTP-version SP status-code SP [reason-phrase]} (RFC 9112 §4); the last SP may be missing. */
    private void parseStatusLine(int from, int end) throws ProtocolException {
        byte[] b = headerBlock;
        if (end - from < 12 || b[from] != 'H' || b[from + 1] != 'T' || b[from + 2] != 'T' || b[from + 3] != 'P'
                || b[from + 4] != '/' || digit(b[from + 5]) < 0 || b[from + 6] != '.' || digit(b[from + 7]) < 0
                || b[from + 8] != ' ' || digit(b[from + 9]) < 0 || digit(b[from + 10]) < 0 || digit(b[from + 11]) < 0
                || (end - from > 12 && b[from + 12] != ' ')) {
            throw new ProtocolException("Not an HTTP/1.x status line (HTTP/1.1 SP 3-digit code SP reason): \""
                    + Ascii.printable(b, from, end) + '"');
        }
        if (b[from + 5] != '1') {
            throw new ProtocolException("Unsupported HTTP version " + Ascii.printable(b, from, from + 8)
                    + " in the status line (HTTP/1.x only)");
        }
        // RFC 9110 §2.5: a higher minor version within the major version we speak is read as the highest we know.
        version = Math.min(11, 10 + digit(b[from + 7]));
        status = digit(b[from + 9]) * 100 + digit(b[from + 10]) * 10 + digit(b[from + 11]);
        reasonStart = Math.min(from + 13, end);
        reasonEnd = end;
    }

    private static int digit(byte b) {
        return b >= '0' && b <= '9' ? b - '0' : -1000;
    }

    /** A field line, or the continuation of the previous one (obs-fold, RFC 9112 §5.2: joined as if by SP). */
    private void headerLine(int from, int end) throws ProtocolException {
        byte[] b = headerBlock;
        if (b[from] == ' ' || b[from] == '\t') {
            if (pendingStart < 0) {
                throw new ProtocolException("Whitespace-preceded line right after the status line: \""
                        + Ascii.printable(b, from, end) + '"');
            }
            pendingEnd = end;
            return;
        }
        interpretPendingHeader();
        int nameEnd = fieldNameEnd(b, from, end, "header");
        int colon = nameEnd;
        while (b[colon] != ':') {
            colon++;
        }
        pendingStart = from;
        pendingNameEnd = nameEnd;
        pendingColon = colon;
        pendingEnd = end;
    }

    /**
     * Validates {@code field-name [whitespace] ":"} (RFC 9112 §5.1) and returns where the name ends. Whitespace
     * between the name and the colon is tolerated (the RFC has proxies remove it from responses); anything else that
     * is not a token byte is an error.
     */
    static int fieldNameEnd(byte[] b, int from, int end, String what) throws ProtocolException {
        int nameEnd = TokenList.tokenEnd(b, from, end);
        int i = nameEnd;
        while (i < end && (b[i] == ' ' || b[i] == '\t')) {
            i++;
        }
        if (i < end && b[i] == ':' && nameEnd > from) {
            return nameEnd;
        }
        String text = Ascii.printable(b, from, end);
        if (indexOf(b, from, end, (byte) ':') < 0) {
            throw new ProtocolException("Response " + what + " line without a colon: \"" + text + '"');
        }
        if (nameEnd == from) {
            throw new ProtocolException("Response " + what + " line without a field name: \"" + text + '"');
        }
        if (i > nameEnd) {
            throw new ProtocolException("Whitespace inside the response " + what + " name in \"" + text + '"');
        }
        throw new ProtocolException(Ascii.describe(b[nameEnd]) + " inside the response " + what + " name in \""
                + text + '"');
    }

    private void interpretPendingHeader() {
        if (pendingStart < 0) {
            return;
        }
        int from = pendingStart;
        pendingStart = -1;
        // Four fields matter here; the name's length rules out most others before a byte is compared.
        byte[] name = switch (pendingNameEnd - from) {
            case 10 -> CONNECTION;
            case 12 -> CONTENT_TYPE;
            case 14 -> CONTENT_LENGTH;
            case 17 -> TRANSFER_ENCODING;
            default -> null;
        };
        if (name == null || !regionIgnoreCase(from, name)) {
            return;
        }
        int vs = pendingColon + 1;
        int ve = pendingEnd;
        byte[] b = headerBlock;
        while (vs < ve && isWhitespace(b[vs])) {
            vs++;
        }
        while (ve > vs && isWhitespace(b[ve - 1])) {
            ve--;
        }
        if (name == CONTENT_LENGTH) {
            contentLength(vs, ve);
        } else if (name == TRANSFER_ENCODING) {
            transferEncoding(vs, ve);
        } else if (name == CONNECTION) {
            connection(vs, ve);
        } else {
            contentTypeStart = vs;
            contentTypeEnd = ve;
            contentTypeFolded = indexOf(b, vs, ve, (byte) '\n') >= 0;
        }
    }

    /** RFC 9110 §7.6.1: a list of connection options, of which close and keep-alive matter. */
    private void connection(int vs, int ve) {
        // fast path: the one-token values nearly every server sends
        if (ve - vs == KEEP_ALIVE.length && regionIgnoreCase(vs, KEEP_ALIVE)) {
            connectionKeepAlive = true;
            return;
        }
        if (ve - vs == CLOSE.length && regionIgnoreCase(vs, CLOSE)) {
            connectionClose = true;
            return;
        }
        for (TokenList t = tokens.over(headerBlock, vs, ve); t.next();) {
            connectionClose |= t.nameIs("close") && !t.hasParameters();
            connectionKeepAlive |= t.nameIs("keep-alive") && !t.hasParameters();
        }
    }

    /** A CR or LF inside a value comes from an obs-fold and counts as whitespace. */
    private static boolean isWhitespace(byte c) {
        return c == ' ' || c == '\t' || c == '\r' || c == '\n';
    }

    private static int indexOf(byte[] b, int from, int end, byte c) {
        for (int i = from; i < end; i++) {
            if (b[i] == c) {
                return i;
            }
        }
        return -1;
    }

    /**
     * RFC 9110 §8.6: a decimal number; a list of identical numbers (or repeated identical fields) counts as one.
     * A problem is kept, not thrown: Content-Length does not matter when Transfer-Encoding frames the body.
     */
    private void contentLength(int from, int end) {
        byte[] b = headerBlock;
        int i = from;
        do {
            int start = i;
            long v = 0;
            while (i < end && digit(b[i]) >= 0) {
                if (v > (Long.MAX_VALUE - 9) / 10) {
                    lengthProblem("Content-Length too large: \"" + Ascii.printable(b, from, end) + '"');
                    return;
                }
                v = v * 10 + digit(b[i]);
                i++;
            }
            int next = i;
            while (next < end && isWhitespace(b[next])) {
                next++;
            }
            if (i == start || (next < end && b[next] != ',')) {
                lengthProblem("Invalid Content-Length: \"" + Ascii.printable(b, from, end) + '"');
                return;
            }
            if (contentLength >= 0 && contentLength != v) {
                lengthProblem("Conflicting Content-Length values " + contentLength + " and " + v);
                return;
            }
            contentLength = v;
            i = next < end ? next + 1 : end;
            while (i < end && isWhitespace(b[i])) {
                i++;
            }
        } while (i < end);
    }

    private void lengthProblem(String message) {
        if (lengthProblem == null) {
            lengthProblem = message;
        }
    }

    /** RFC 9112 §6.1: codings in the order applied; several fields form one list. */
    private void transferEncoding(int from, int end) {
        transferEncoding = true;
        for (TokenList t = tokens.over(headerBlock, from, end); t.next();) {
            if (t.problem() != null) {
                if (codingProblem == null) {
                    codingProblem = "Invalid Transfer-Encoding \"" + Ascii.printable(headerBlock, from, end) + "\": "
                            + t.problem();
                }
                return;
            }
            codings++;
            finalCodingChunked = t.nameIs("chunked");
            if (finalCodingChunked) {
                chunkedCodings++;
            }
        }
    }

    /**
     * Whether the header block holds {@code lower} at {@code from}, ignoring ASCII case (RFC 9110: field names and
     * these tokens are case-insensitive). {@code lower} is lower case, letters and '-' only, so setting 0x20 on the
     * received byte suffices.
     */
    private boolean regionIgnoreCase(int from, byte[] lower) {
        byte[] b = headerBlock;
        int n = lower.length;
        if (n >= 8) {
            // the first and the last eight bytes (overlapping when shorter than 16) as two words
            return ((long) LONGS.get(b, from) | CASE_BITS) == (long) LONGS.get(lower, 0)
                    && ((long) LONGS.get(b, from + n - 8) | CASE_BITS) == (long) LONGS.get(lower, n - 8)
                    && (n <= 16 || regionIgnoreCase(b, from, lower, 8, n - 8));
        }
        return regionIgnoreCase(b, from, lower, 0, n);
    }

    /** Compares {@code b[from + i]} with {@code lower[i]} for i in [start, end). */
    private static boolean regionIgnoreCase(byte[] b, int from, byte[] lower, int start, int end) {
        for (int i = start; i < end; i++) {
            if ((b[from + i] | 0x20) != lower[i]) {
                return false;
            }
        }
        return true;
    }

    /** RFC 9112 §6.3, in its order. */
    private void endOfHeaders() throws ProtocolException {
        closeDelimited = false;
        if (status < 200 && status >= 100 && status != 101) {
            // Interim response (100 Continue, 103 Early Hints): the final response follows on the same stream.
            state = State.STATUS_LINE;
            startHeaderBlock();
            return;
        }
        if (headRequest || status == 204 || status == 304 || status == 101) {
            state = State.DONE;
        } else if (transferEncoding) {
            if (codingProblem != null) {
                throw new ProtocolException(codingProblem);
            }
            if (codings == 0) {
                throw new ProtocolException("Transfer-Encoding without a coding");
            }
            if (chunkedCodings > 1) {
                throw new ProtocolException("Transfer-Encoding applies chunked more than once");
            }
            // Content-Length is ignored; both together, or Transfer-Encoding in HTTP/1.0, end the connection (§6.1).
            framingSuspect = contentLength >= 0 || lengthProblem != null || version < 11;
            if (finalCodingChunked) {
                state = State.CHUNK_SIZE_LINE;
                lineLen = 0;
            } else {
                closeDelimited = true;
                state = State.UNTIL_CLOSE;
            }
        } else if (lengthProblem != null) {
            throw new ProtocolException(lengthProblem);
        } else if (contentLength >= 0) {
            remaining = contentLength;
            state = contentLength == 0 ? State.DONE : State.FIXED_BODY;
        } else {
            closeDelimited = true;
            state = State.UNTIL_CLOSE;
        }
    }

    /**
     * Appends the readable bytes up to and including the next LF to {@link #line}.
     *
     * @return the line's length without its CRLF (or LF) once the line is complete, else -1
     */
    private int readLine(ByteBuf in, int max, String what) throws ProtocolException {
        int lf = in.indexOf(in.readerIndex(), in.writerIndex(), (byte) '\n');
        int n = (lf < 0 ? in.writerIndex() : lf + 1) - in.readerIndex();
        if (lineLen + n - (lf < 0 ? 0 : 1) > max) {
            throw new ProtocolException("Response " + what + " longer than " + max + " bytes");
        }
        if (lineLen + n > line.length) {
            byte[] bigger = new byte[Math.max(line.length * 2, lineLen + n)];
            System.arraycopy(line, 0, bigger, 0, lineLen);
            line = bigger;
        }
        in.readBytes(line, lineLen, n);
        lineLen += n;
        bodyBytes += n;
        if (lf < 0) {
            return -1;
        }
        int end = lineLen - 1;
        if (end > 0 && line[end - 1] == '\r') {
            end--;
        }
        for (int i = 0; i < end; i++) {
            if (line[i] == '\r' || line[i] == 0) {
                throw new ProtocolException((line[i] == 0 ? "NUL byte" : "Bare CR (not followed by LF)")
                        + " in the response " + what + " after \"" + Ascii.printable(line, 0, i) + '"');
            }
        }
        lineLen = 0;
        return end;
    }

    /** {@code chunk-size [chunk-ext]}, chunk-ext = {@code *( BWS ";" BWS name [ BWS "=" BWS value ] )} (§7.1). */
    private void parseChunkSizeLine(int end) throws ProtocolException {
        byte[] b = line;
        int i = 0;
        long size = 0;
        while (i < end && hexValue(b[i]) >= 0) {
            if (size > (Long.MAX_VALUE >> 4)) {
                throw new ProtocolException("Chunk size too large: \"" + Ascii.printable(b, 0, end) + '"');
            }
            size = (size << 4) | hexValue(b[i]);
            i++;
        }
        if (i == 0) {
            throw invalidChunkLine(end, "no hexadecimal chunk size");
        }
        while (i < end) {
            int j = skipBlanks(b, i, end);
            if (j == end) {
                throw invalidChunkLine(end, "whitespace at the end of the line");
            }
            if (b[j] != ';') {
                throw invalidChunkLine(end, Ascii.describe(b[j]) + " where ';' or the line end belongs");
            }
            j = skipBlanks(b, j + 1, end);
            int nameEnd = TokenList.tokenEnd(b, j, end);
            if (nameEnd == j) {
                throw invalidChunkLine(end, "a chunk extension without a name");
            }
            i = nameEnd;
            j = skipBlanks(b, nameEnd, end);
            if (j < end && b[j] == '=') {
                j = skipBlanks(b, j + 1, end);
                int valueEnd = j < end && b[j] == '"'
                        ? TokenList.quotedEnd(b, j, end) : TokenList.tokenEnd(b, j, end);
                if (valueEnd <= j) {
                    throw invalidChunkLine(end, "a chunk extension without a valid value after '='");
                }
                i = valueEnd;
            }
        }
        if (size == 0) {
            state = State.TRAILERS;
            trailerBytes = 0;
            trailerLineSeen = false;
        } else {
            remaining = size;
            lastChunkSize = size;
            state = State.CHUNK_DATA;
        }
    }

    private ProtocolException invalidChunkLine(int end, String why) {
        return new ProtocolException("Invalid chunk size line \"" + Ascii.printable(line, 0, end) + "\": " + why);
    }

    private static int skipBlanks(byte[] b, int from, int end) {
        while (from < end && (b[from] == ' ' || b[from] == '\t')) {
            from++;
        }
        return from;
    }

    /** Chunk data is followed by CRLF (or a bare LF); anything else means the chunk was longer than its size. */
    private void readChunkDataEnd(ByteBuf in) throws ProtocolException {
        byte c = in.readByte();
        bodyBytes++;
        if (c == '\n') {
            state = State.CHUNK_SIZE_LINE;
            lineLen = 0;
        } else if (c == '\r' && !chunkCrSeen) {
            chunkCrSeen = true;
        } else {
            throw new ProtocolException("Chunk data not followed by CRLF after " + lastChunkSize
                    + " bytes (the chunk is longer than its size line says)");
        }
    }

    /** A trailer field line (validated like a header line, its value not read) or the empty line ending the body. */
    private void parseTrailerLine(int end) throws ProtocolException {
        trailerBytes += end;
        if (end == 0) {
            state = State.DONE;
            return;
        }
        if (line[0] == ' ' || line[0] == '\t') {
            if (!trailerLineSeen) {
                throw new ProtocolException("Whitespace-preceded first trailer line: \""
                        + Ascii.printable(line, 0, end) + '"');
            }
            return;
        }
        fieldNameEnd(line, 0, end, "trailer");
        trailerLineSeen = true;
    }

    private static int hexValue(byte b) {
        if (b >= '0' && b <= '9') {
            return b - '0';
        }
        int l = b | 0x20;
        return l >= 'a' && l <= 'f' ? l - 'a' + 10 : -1;
    }

    /** Counts n body bytes and copies only those that still fit under the kept limit. */
    private int keepBody(ByteBuf in, int n) {
        return keepBody(in, n, keepLimit);
    }

    /** As above, the buffer growing no further than {@code limit}: the body's announced end, when it is known. */
    private int keepBody(ByteBuf in, int n, int limit) {
        body.add(in, n, limit);
        in.skipBytes(n);
        bodyBytes += n;
        return n;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
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

    @Override
    public boolean bodyCut() {
        return body.cut();
    }

    public long bodyBytes() {
        return bodyBytes;
    }

    public long totalBytes() {
        return headerBytes + bodyBytes;
    }

    /**
     * The kept body bytes (decoded from chunks) as an array the caller may keep and must not change: a copy, or, for
     * a body over 64 KiB, the buffer itself, taken (the framer then keeps none of it: {@link #keptBodyLength()} is
     * 0 afterwards).
     */
    public byte[] keptBody() {
        return body.copy();
    }

    public int keptBodyLength() {
        return body.length();
    }

    /** The body buffer's size now: what this connection holds between responses. */
    int keptBodyCapacity() {
        return body.capacity();
    }

    /** The kept body bytes in place (valid until the next {@link #reset}); {@link #keptBodyLength()} of them. */
    public byte[] keptBodyBuffer() {
        return body.buffer();
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
        return !contentTypeFolded && regionEquals(contentTypeStart, contentTypeEnd, candidate);
    }

    /** The Content-Type header value (a folded one joined by spaces), or null when the response had none. */
    public String contentType() {
        if (contentTypeEnd <= contentTypeStart) {
            return null;
        }
        String value = text(contentTypeStart, contentTypeEnd);
        return contentTypeFolded ? value.replaceAll("\\r?\\n[ \\t]*", " ") : value;
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

    /** Whether no byte of the response has arrived yet. */
    /** The failure to report when the server closed the connection before this response was complete. */
    public PrematureCloseException closedEarly() {
        return Failures.closedByServer(progress(), nothingReceived());
    }

    boolean nothingReceived() {
        return state == State.STATUS_LINE && headerBytes == 0;
    }

    /** Where the response stood when the stream ended, for the premature-close message. */
    public String progress() {
        return switch (state) {
            case STATUS_LINE -> headerBytes == 0 ? "before any byte of the response"
                    : "inside the status line after " + headerBytes + " bytes";
            case HEADERS -> "inside the response headers after " + headerBytes + " bytes";
            case FIXED_BODY -> "after " + bodyBytes + " of " + contentLength + " body bytes";
            case TRAILERS -> "inside the chunked trailers";
            case CHUNK_SIZE_LINE, CHUNK_DATA, CHUNK_DATA_END -> "inside the chunked body after " + bodyBytes + " bytes";
            case UNTIL_CLOSE, DONE -> "after the end of the response";
        };
    }
}
