/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.http1;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.ProtocolException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Raw responses judged against RFC 9112 (and the parts of RFC 9110 it relies on). Every case runs three ways: in one
 * read, cut in two at every byte, and one byte per read; each way must give the same status, decoded body, reuse
 * verdict and failure message. {@code §} numbers are RFC 9112's unless marked 9110.
 */
class ResponseFramerConformanceTest {
    private static final String OK = "HTTP/1.1 200 OK\r\n";
    private static final String CHUNKED = OK + "Transfer-Encoding: chunked\r\n\r\n";
    private static final String HELLO_CHUNKS = "5\r\nhello\r\n0\r\n\r\n";

    enum Kind { COMPLETE, UNTIL_CLOSE, PROTOCOL_ERROR, CUT_SHORT }

    /**
     * What the framer must report: COMPLETE ends without a close (rest = bytes left for the next response),
     * UNTIL_CLOSE ends at the server's close, PROTOCOL_ERROR throws {@code message}, CUT_SHORT is premature at a
     * close and {@code message} is its progress text.
     */
    record Expect(Kind kind, int status, String body, boolean reusable, String message, String rest) {
        Expect rest(String next) {
            return new Expect(kind, status, body, reusable, message, next);
        }
    }

    record Case(String name, String response, boolean head, Expect expect) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static Expect ok(int status, String body, boolean reusable) {
        return new Expect(Kind.COMPLETE, status, body, reusable, null, "");
    }

    private static Expect untilClose(int status, String body) {
        return new Expect(Kind.UNTIL_CLOSE, status, body, false, null, "");
    }

    private static Expect error(String message) {
        return new Expect(Kind.PROTOCOL_ERROR, 0, null, false, message, "");
    }

    private static Expect cut(String progress) {
        return new Expect(Kind.CUT_SHORT, 0, null, false, progress, "");
    }

    private static Case c(String name, String response, Expect expect) {
        return new Case(name, response, false, expect);
    }

    static Stream<Case> cases() {
        List<Case> t = new ArrayList<>();
        // --- message body length (§6.3): Content-Length
        t.add(c("content-length", OK + "Content-Length: 5\r\n\r\nhello", ok(200, "hello", true)));
        t.add(c("content-length 0", OK + "Content-Length: 0\r\n\r\n", ok(200, "", true)));
        t.add(c("content-length with OWS", OK + "Content-Length: \t 5 \r\n\r\nhello", ok(200, "hello", true)));
        t.add(c("repeated identical content-length (9110 §8.6)",
                OK + "Content-Length: 5\r\nContent-Length: 5\r\n\r\nhello", ok(200, "hello", true)));
        t.add(c("content-length list of identical values", OK + "Content-Length: 5, 5\r\n\r\nhello",
                ok(200, "hello", true)));
        t.add(c("content-length bytes after the body stay for the next response",
                OK + "Content-Length: 2\r\n\r\nokHTTP/1.1", ok(200, "ok", true).rest("HTTP/1.1")));
        t.add(c("invalid content-length", OK + "Content-Length: x1\r\n\r\n", error("Invalid Content-Length: \"x1\"")));
        t.add(c("negative content-length", OK + "Content-Length: -1\r\n\r\n", error("Invalid Content-Length: \"-1\"")));
        t.add(c("content-length with a sign", OK + "Content-Length: +5\r\n\r\nhello",
                error("Invalid Content-Length: \"+5\"")));
        t.add(c("empty content-length", OK + "Content-Length: \r\n\r\n", error("Invalid Content-Length: \"\"")));
        t.add(c("conflicting content-length fields", OK + "Content-Length: 5\r\nContent-Length: 6\r\n\r\nhello",
                error("Conflicting Content-Length values 5 and 6")));
        t.add(c("conflicting content-length list", OK + "Content-Length: 5, 6\r\n\r\nhello",
                error("Conflicting Content-Length values 5 and 6")));
        t.add(c("content-length overflow", OK + "Content-Length: 99999999999999999999\r\n\r\n",
                error("Content-Length too large: \"99999999999999999999\"")));
        t.add(c("invalid content-length does not matter for 304", "HTTP/1.1 304 Not Modified\r\nContent-Length: x"
                + "\r\n\r\n", ok(304, "", true)));
        // --- Transfer-Encoding (§6.1, §6.3 item 4, §7)
        t.add(c("chunked", CHUNKED + HELLO_CHUNKS, ok(200, "hello", true)));
        t.add(c("chunked, several chunks, upper-case hex, leading zeros",
                CHUNKED + "A\r\n0123456789\r\n003\r\nabc\r\n0\r\n\r\n", ok(200, "0123456789abc", true)));
        t.add(c("chunked coding name is case-insensitive", OK + "Transfer-Encoding: ChUnKeD\r\n\r\n" + HELLO_CHUNKS,
                ok(200, "hello", true)));
        t.add(c("chunked last in a list", OK + "Transfer-Encoding: gzip, chunked\r\n\r\n" + HELLO_CHUNKS,
                ok(200, "hello", true)));
        t.add(c("chunked last over two fields",
                OK + "Transfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n" + HELLO_CHUNKS,
                ok(200, "hello", true)));
        t.add(c("empty list elements are ignored (9110 §5.6.1)",
                OK + "Transfer-Encoding: , chunked ,\r\n\r\n" + HELLO_CHUNKS, ok(200, "hello", true)));
        t.add(c("coding with a parameter", OK + "Transfer-Encoding: foo;q=\"a, b\", chunked\r\n\r\n" + HELLO_CHUNKS,
                ok(200, "hello", true)));
        t.add(c("chunked not final: read until close", OK + "Transfer-Encoding: chunked, gzip\r\n\r\n" + HELLO_CHUNKS,
                untilClose(200, HELLO_CHUNKS)));
        t.add(c("chunkedchunked is not chunked", OK + "Transfer-Encoding: chunkedchunked\r\n\r\n2\r\nOK\r\n0\r\n\r\n",
                untilClose(200, "2\r\nOK\r\n0\r\n\r\n")));
        t.add(c("xchunked is not chunked", OK + "Transfer-Encoding: xchunked\r\n\r\nraw", untilClose(200, "raw")));
        t.add(c("identity: read until close", OK + "Transfer-Encoding: identity\r\n\r\nraw", untilClose(200, "raw")));
        t.add(c("transfer-encoding overrides content-length, no reuse",
                OK + "Content-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n" + HELLO_CHUNKS,
                ok(200, "hello", false)));
        t.add(c("invalid content-length ignored under transfer-encoding",
                OK + "Transfer-Encoding: chunked\r\nContent-Length: nope\r\n\r\n" + HELLO_CHUNKS,
                ok(200, "hello", false)));
        t.add(c("transfer-encoding in HTTP/1.0: framed, no reuse",
                "HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nTransfer-Encoding: chunked\r\n\r\n" + HELLO_CHUNKS,
                ok(200, "hello", false)));
        t.add(c("chunked twice", OK + "Transfer-Encoding: chunked, chunked\r\n\r\n" + HELLO_CHUNKS,
                error("Transfer-Encoding applies chunked more than once")));
        t.add(c("empty transfer-encoding", OK + "Transfer-Encoding: \r\n\r\n",
                error("Transfer-Encoding without a coding")));
        t.add(c("space inside a coding", OK + "Transfer-Encoding: chu nked\r\n\r\n",
                error("Invalid Transfer-Encoding \"chu nked\": 'n' after \"chu \" where ',' or ';' belongs")));
        t.add(c("coding parameter without a name", OK + "Transfer-Encoding: chunked;\r\n\r\n",
                error("Invalid Transfer-Encoding \"chunked;\": a parameter without a name")));
        t.add(c("coding parameter without a value", OK + "Transfer-Encoding: gzip;q, chunked\r\n\r\n",
                error("Invalid Transfer-Encoding \"gzip;q, chunked\": parameter \"q\" without '='")));
        // --- chunked coding (§7.1)
        t.add(c("chunk extensions", CHUNKED + "5;name=value;flag\r\nhello\r\n0;last\r\n\r\n", ok(200, "hello", true)));
        t.add(c("chunk extensions with BWS and a quoted value",
                CHUNKED + "5 ; a = \"x;y, \\\"z\" ; b\r\nhello\r\n0\r\n\r\n", ok(200, "hello", true)));
        t.add(c("trailer fields", CHUNKED + "5\r\nhello\r\n0\r\nX-Checksum: 1\r\nX-Other: 2\r\n\r\n",
                ok(200, "hello", true)));
        t.add(c("obs-fold in a trailer", CHUNKED + "0\r\nX-T: a\r\n b\r\n\r\n", ok(200, "", true)));
        t.add(c("chunked then the next response", CHUNKED + HELLO_CHUNKS + "HTTP/1.1 204",
                ok(200, "hello", true).rest("HTTP/1.1 204")));
        t.add(c("chunk size followed by junk", CHUNKED + "2 erfr\r\nOK\r\n0\r\n\r\n",
                error("Invalid chunk size line \"2 erfr\": 'e' where ';' or the line end belongs")));
        t.add(c("chunk extension with an empty name", CHUNKED + "2;\r\nOK\r\n0\r\n\r\n",
                error("Invalid chunk size line \"2;\": a chunk extension without a name")));
        t.add(c("whitespace after the chunk size", CHUNKED + "2  \r\nOK\r\n0\r\n\r\n",
                error("Invalid chunk size line \"2  \": whitespace at the end of the line")));
        t.add(c("whitespace after a chunk extension", CHUNKED + "2;a \r\nOK\r\n0\r\n\r\n",
                error("Invalid chunk size line \"2;a \": whitespace at the end of the line")));
        t.add(c("chunk extension name with a space", CHUNKED + "2;a b\r\nOK\r\n0\r\n\r\n",
                error("Invalid chunk size line \"2;a b\": 'b' where ';' or the line end belongs")));
        t.add(c("chunk extension without a value", CHUNKED + "2;a=\r\nOK\r\n0\r\n\r\n",
                error("Invalid chunk size line \"2;a=\": a chunk extension without a valid value after '='")));
        t.add(c("unterminated quoted chunk extension", CHUNKED + "2;a=\"x\r\nOK\r\n0\r\n\r\n",
                error("Invalid chunk size line \"2;a=\"x\": a chunk extension without a valid value after '='")));
        t.add(c("chunk size missing", CHUNKED + "\r\nOK\r\n0\r\n\r\n",
                error("Invalid chunk size line \"\": no hexadecimal chunk size")));
        t.add(c("chunk size not hexadecimal", CHUNKED + "zz\r\n",
                error("Invalid chunk size line \"zz\": no hexadecimal chunk size")));
        t.add(c("chunk size with 0x", CHUNKED + "0x2\r\nOK\r\n0\r\n\r\n",
                error("Invalid chunk size line \"0x2\": 'x' where ';' or the line end belongs")));
        t.add(c("chunk size overflow", CHUNKED + "fffffffffffffffff\r\n",
                error("Chunk size too large: \"fffffffffffffffff\"")));
        t.add(c("chunk longer than its size", CHUNKED + "2\r\nOKX\r\n0\r\n\r\n",
                error("Chunk data not followed by CRLF after 2 bytes (the chunk is longer than its size line says)")));
        t.add(c("bare CR after chunk data", CHUNKED + "2\r\nOK\rX\r\n0\r\n\r\n",
                error("Chunk data not followed by CRLF after 2 bytes (the chunk is longer than its size line says)")));
        t.add(c("bare CR in a chunk size line", CHUNKED + "2\r;a\r\nOK\r\n0\r\n\r\n",
                error("Bare CR (not followed by LF) in the response chunk size line after \"2\"")));
        t.add(c("trailer name with a space", CHUNKED + "0\r\nbad name: 1\r\n\r\n",
                error("Whitespace inside the response trailer name in \"bad name: 1\"")));
        t.add(c("trailer line without a colon", CHUNKED + "0\r\nbad trailer\r\n\r\n",
                error("Response trailer line without a colon: \"bad trailer\"")));
        t.add(c("trailer line with an empty name", CHUNKED + "0\r\n: x\r\n\r\n",
                error("Response trailer line without a field name: \": x\"")));
        // --- status line (§4) and version (9110 §2.5)
        t.add(c("reason phrase may be empty", "HTTP/1.1 200 \r\nContent-Length: 0\r\n\r\n", ok(200, "", true)));
        t.add(c("missing SP after the status code tolerated", "HTTP/1.1 404\r\nContent-Length: 0\r\n\r\n",
                ok(404, "", true)));
        t.add(c("reason phrase with obs-text and HTAB", "HTTP/1.1 200 \u00e9t\u00e9\tok\r\nContent-Length: 0\r\n\r\n",
                ok(200, "", true)));
        t.add(c("HTTP/1.0 closes by default", "HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok", ok(200, "ok", false)));
        t.add(c("HTTP/1.2 read as HTTP/1.1", "HTTP/1.2 200 OK\r\nContent-Length: 2\r\n\r\nok", ok(200, "ok", true)));
        t.add(c("status 600 is framed like a final response", "HTTP/1.1 600 Odd\r\nContent-Length: 2\r\n\r\nok",
                ok(600, "ok", true)));
        t.add(c("HTTP/5.6", "HTTP/5.6 200 OK\r\nContent-Length: 0\r\n\r\n",
                error("Unsupported HTTP version HTTP/5.6 in the status line (HTTP/1.x only)")));
        t.add(c("HTTP/2.0", "HTTP/2.0 200 OK\r\n\r\n",
                error("Unsupported HTTP version HTTP/2.0 in the status line (HTTP/1.x only)")));
        t.add(c("HTTP/0.9", "HTTP/0.9 200 OK\r\n\r\n",
                error("Unsupported HTTP version HTTP/0.9 in the status line (HTTP/1.x only)")));
        t.add(c("HTTP-name is case-sensitive", "http/1.1 200 OK\r\n\r\n", error(notStatusLine("http/1.1 200 OK"))));
        t.add(c("not HTTP at all", "SSH-2.0-OpenSSH_9.2\r\n", error(notStatusLine("SSH-2.0-OpenSSH_9.2"))));
        t.add(c("two-digit status", "HTTP/1.1 20 OK\r\n\r\n", error(notStatusLine("HTTP/1.1 20 OK"))));
        t.add(c("four-digit status", "HTTP/1.1 2000 OK\r\n\r\n", error(notStatusLine("HTTP/1.1 2000 OK"))));
        t.add(c("two spaces before the status", "HTTP/1.1  200 OK\r\n\r\n", error(notStatusLine("HTTP/1.1  200 OK"))));
        t.add(c("leading space before the status line", " HTTP/1.1 200 OK\r\n\r\n",
                error(notStatusLine(" HTTP/1.1 200 OK"))));
        t.add(c("two-digit version", "HTTP/11 200 OK\r\n\r\n", error(notStatusLine("HTTP/11 200 OK"))));
        // --- line endings and empty lines (§2.2)
        t.add(c("bare LF line ends", "HTTP/1.1 201 Created\nTransfer-Encoding: chunked\n\n2\nok\n0\n\n",
                ok(201, "ok", true)));
        t.add(c("empty line before the status line", "\r\n" + OK + "Content-Length: 2\r\n\r\nok", ok(200, "ok", true)));
        t.add(c("several empty lines, CRLF and LF, before the status line",
                "\r\n\n\r\n" + OK + "Content-Length: 2\r\n\r\nok", ok(200, "ok", true)));
        t.add(c("bare CR ends no line", "HTTP/1.1 200 OK\rContent-Length: 0\r\n\r\n",
                error("Bare CR (not followed by LF) in the response status line after \"HTTP/1.1 200 OK\"")));
        t.add(c("bare CR inside a header value", OK + "X-A: a\rb\r\nContent-Length: 0\r\n\r\n",
                error("Bare CR (not followed by LF) in the response headers after \"X-A: a\"")));
        t.add(c("CR CR LF", OK + "Content-Length: 0\r\r\n\r\n",
                error("Bare CR (not followed by LF) in the response headers after \"Content-Length: 0\"")));
        t.add(c("bare CR before the status line", "\r" + OK,
                error("Bare CR (not followed by LF) in the response status line after \"\"")));
        t.add(c("NUL in a header value", OK + "X-A: a\u0000b\r\nContent-Length: 0\r\n\r\n",
                error("NUL byte in the response headers after \"X-A: a\"")));
        t.add(c("NUL in the status line", "HTTP/1.1 200 O\u0000K\r\n\r\n",
                error("NUL byte in the response status line after \"HTTP/1.1 200 O\"")));
        // --- header fields (§5, 9110 §5.5, §5.6)
        t.add(c("whitespace before the colon is removed", OK + "Content-Length : 2\r\n\r\nok", ok(200, "ok", true)));
        t.add(c("header names are case-insensitive", OK + "CONTENT-LENGTH: 2\r\n\r\nok", ok(200, "ok", true)));
        t.add(c("obs-fold continues a value", OK + "X-Long: a\r\n  b\r\n\tc\r\nContent-Length: 2\r\n\r\nok",
                ok(200, "ok", true)));
        t.add(c("obs-fold inside Connection", OK + "Connection: keep-alive,\r\n close\r\nContent-Length: 2\r\n\r\nok",
                ok(200, "ok", false)));
        t.add(c("control byte in a value tolerated", OK + "X-A: a\u0001b\r\nContent-Length: 2\r\n\r\nok",
                ok(200, "ok", true)));
        t.add(c("header line without a colon", OK + "Content-Length 5\r\n\r\nhello",
                error("Response header line without a colon: \"Content-Length 5\"")));
        t.add(c("header line of one word", OK + "Garbage\r\n\r\n",
                error("Response header line without a colon: \"Garbage\"")));
        t.add(c("whitespace inside a header name", OK + "Content Length: 5\r\n\r\nhello",
                error("Whitespace inside the response header name in \"Content Length: 5\"")));
        t.add(c("empty header name", OK + ": x\r\nContent-Length: 0\r\n\r\n",
                error("Response header line without a field name: \": x\"")));
        t.add(c("non-token byte in a header name", OK + "X-A(b): 1\r\n\r\n",
                error("'(' inside the response header name in \"X-A(b): 1\"")));
        t.add(c("whitespace line right after the status line", OK + " X: 1\r\nContent-Length: 0\r\n\r\n",
                error("Whitespace-preceded line right after the status line: \" X: 1\"")));
        // --- connection persistence (§9.3, 9110 §7.6.1)
        t.add(c("Connection: close", OK + "Connection: close\r\nContent-Length: 2\r\n\r\nok", ok(200, "ok", false)));
        t.add(c("Connection tokens are case-insensitive", OK + "connection: Keep-Alive, CLOSE\r\nContent-Length: 2"
                + "\r\n\r\nok", ok(200, "ok", false)));
        t.add(c("Connection: closed is not close", OK + "Connection: closed\r\nContent-Length: 2\r\n\r\nok",
                ok(200, "ok", true)));
        t.add(c("Connection close among other options", OK + "Connection: upgrade,close\r\nContent-Length: 2\r\n\r\nok",
                ok(200, "ok", false)));
        t.add(c("Connection: not-close", OK + "Connection: not-close\r\nContent-Length: 2\r\n\r\nok",
                ok(200, "ok", true)));
        t.add(c("HTTP/1.0 keep-alive", "HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 2\r\n\r\nok",
                ok(200, "ok", true)));
        t.add(c("HTTP/1.0 keep-alive-ish is not keep-alive",
                "HTTP/1.0 200 OK\r\nConnection: keep-alive-ish\r\nContent-Length: 2\r\n\r\nok", ok(200, "ok", false)));
        t.add(c("no length at all: read until close", OK + "Content-Type: text/plain\r\n\r\nsome more",
                untilClose(200, "some more")));
        // --- responses without a body, interim responses (§6.3 items 1-2, 9110 §15.2)
        t.add(new Case("HEAD ignores Content-Length", OK + "Content-Length: 18\r\n\r\n", true, ok(200, "", true)));
        t.add(new Case("HEAD ignores Transfer-Encoding", CHUNKED, true, ok(200, "", true)));
        t.add(c("204 ignores Content-Length", "HTTP/1.1 204 No Content\r\nContent-Length: 5\r\n\r\nnext",
                ok(204, "", true).rest("next")));
        t.add(c("304 has no body", "HTTP/1.1 304 Not Modified\r\nTransfer-Encoding: chunked\r\n\r\n",
                ok(304, "", true)));
        t.add(c("100 Continue, then the response", "HTTP/1.1 100 Continue\r\n\r\n" + OK + "Content-Length: 2\r\n\r\nok",
                ok(200, "ok", true)));
        t.add(c("103 Early Hints with fields, then the response",
                "HTTP/1.1 103 Early Hints\r\nLink: </s.css>; rel=preload\r\n\r\n" + OK + "Content-Length: 2\r\n\r\nok",
                ok(200, "ok", true)));
        t.add(c("100 Continue, an empty line, then 404",
                "HTTP/1.1 100 Continue\r\n\r\n\r\nHTTP/1.1 404 Not Found\r\nContent-Length: 2\r\n\r\nno",
                ok(404, "no", true)));
        t.add(c("interim Content-Length does not frame the response",
                "HTTP/1.1 100 Continue\r\nContent-Length: 9\r\n\r\n" + OK + "Content-Length: 2\r\n\r\nok",
                ok(200, "ok", true)));
        t.add(c("101 Switching Protocols ends the HTTP stream",
                "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n\u0081\u0002hi",
                ok(101, "", false).rest("\u0081\u0002hi")));
        // --- incomplete responses: the server closes too early
        t.add(c("cut inside the status line", "HTTP/1.1 20", cut("inside the status line after 11 bytes")));
        t.add(c("only empty lines", "\r\n\r\n", cut("inside the status line after 4 bytes")));
        t.add(c("cut inside the headers", OK + "Content-Le", cut("inside the response headers after 27 bytes")));
        t.add(c("cut before the empty line", OK + "Content-Length: 2\r\n", cut("inside the response headers after 36 "
                + "bytes")));
        t.add(c("cut inside a Content-Length body", OK + "Content-Length: 10\r\n\r\nabc",
                cut("after 3 of 10 body bytes")));
        t.add(c("cut inside a chunk size line", CHUNKED + "5", cut("inside the chunked body after 1 bytes")));
        t.add(c("cut inside chunk data", CHUNKED + "5\r\nhel", cut("inside the chunked body after 6 bytes")));
        t.add(c("cut before the last chunk", CHUNKED + "5\r\nhello\r\n",
                cut("inside the chunked body after 10 bytes")));
        t.add(c("cut inside the trailers", CHUNKED + "0\r\nX-T: 1\r\n", cut("inside the chunked trailers")));
        t.add(c("cut after 100 Continue", "HTTP/1.1 100 Continue\r\n\r\n",
                cut("inside the status line after 25 bytes")));
        t.add(c("close-delimited after a non-chunked final coding",
                OK + "Transfer-Encoding: gzip\r\n\r\n\u001f\u008b", untilClose(200, "\u001f\u008b")));
        return t.stream();
    }

    private static String notStatusLine(String line) {
        return "Not an HTTP/1.x status line (HTTP/1.1 SP 3-digit code SP reason): \"" + line + '"';
    }

    @Test
    void theTableIsLargeEnoughAndCoversEveryKind() {
        List<Case> all = cases().toList();
        assertTrue(all.size() >= 60, "only " + all.size() + " cases");
        for (Kind k : Kind.values()) {
            assertTrue(all.stream().anyMatch(x -> x.expect.kind == k), "no case of kind " + k);
        }
        assertEquals(all.size(), all.stream().map(Case::name).distinct().count(), "case names must be unique");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void inOneRead(Case c) {
        check(new ResponseFramer(), c, List.of(c.response), "one read");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void cutInTwoAtEveryByte(Case c) {
        ResponseFramer framer = new ResponseFramer(); // reused: reset must forget everything of the last run
        for (int cut = 1; cut < c.response.length(); cut++) {
            check(framer, c, List.of(c.response.substring(0, cut), c.response.substring(cut)), "cut at " + cut);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void oneBytePerRead(Case c) {
        List<String> bytes = new ArrayList<>();
        for (int i = 0; i < c.response.length(); i++) {
            bytes.add(c.response.substring(i, i + 1));
        }
        check(new ResponseFramer(), c, bytes, "one byte per read");
    }

    private static void check(ResponseFramer framer, Case c, List<String> reads, String how) {
        String where = c.name + " (" + how + ")";
        framer.reset(c.head, 1 << 16);
        boolean done = false;
        ProtocolException failure = null;
        StringBuilder left = new StringBuilder();
        for (String read : reads) {
            if (failure != null) {
                break;
            }
            if (done) {
                left.append(read);
                continue;
            }
            ByteBuf in = Unpooled.wrappedBuffer(read.getBytes(StandardCharsets.ISO_8859_1));
            try {
                done = framer.feed(in);
            } catch (ProtocolException e) {
                failure = e;
                continue;
            }
            if (done) {
                left.append(in.toString(StandardCharsets.ISO_8859_1));
            } else {
                assertFalse(in.isReadable(), where + ": an unfinished response left bytes unread");
            }
        }
        Expect x = c.expect;
        if (x.kind == Kind.PROTOCOL_ERROR) {
            assertNotNull(failure, where + ": accepted, expected \"" + x.message + '"');
            assertEquals(x.message, failure.getMessage(), where);
            assertFalse(framer.isComplete(), where);
            assertFalse(framer.reusable(), where);
            return;
        }
        if (failure != null) {
            fail(where + ": failed with \"" + failure.getMessage() + '"');
        }
        switch (x.kind) {
            case COMPLETE -> {
                assertTrue(done, where + ": not complete, " + framer.progress());
                assertEquals(x.rest, left.toString(), where + ": bytes left for the next response");
            }
            case UNTIL_CLOSE -> {
                assertFalse(done, where + ": complete before the close");
                assertTrue(framer.closeReceived(), where);
            }
            case CUT_SHORT -> {
                assertFalse(done, where + ": complete");
                assertFalse(framer.closeReceived(), where + ": a close completed a cut-off response");
                assertEquals(x.message, framer.progress(), where);
                assertFalse(framer.reusable(), where);
                return;
            }
            default -> throw new AssertionError(x.kind);
        }
        assertEquals(x.status, framer.status(), where);
        assertEquals(x.body, new String(framer.keptBody(), StandardCharsets.ISO_8859_1), where);
        assertEquals(x.reusable, framer.reusable(), where + ": reusable");
        assertEquals(c.response.length() - x.rest.length(), framer.totalBytes(), where + ": bytes counted");
    }
}
