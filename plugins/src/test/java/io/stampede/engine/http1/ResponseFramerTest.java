/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.http1;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.net.ProtocolException;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ResponseFramerTest {
    private static final String OK_18 = "HTTP/1.1 200 OK\r\nServer: nginx\r\nContent-Type: text/plain\r\n"
            + "Content-Length: 18\r\n\r\n0123456789abcdefgh";
    private static final String CHUNKED = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "5;ext=1\r\nhello\r\n7\r\n, world\r\n0\r\nX-Trailer: yes\r\nX-Other: 2\r\n\r\n";

    private final ResponseFramer framer = new ResponseFramer();

    private static ByteBuf buf(String s) {
        return Unpooled.wrappedBuffer(s.getBytes(StandardCharsets.ISO_8859_1));
    }

    private boolean feedAll(String s) throws ProtocolException {
        ByteBuf in = buf(s);
        boolean done = framer.feed(in);
        assertFalse(in.isReadable(), "the framer left bytes of a single response unread");
        return done;
    }

    private String body() {
        return new String(framer.keptBody(), StandardCharsets.ISO_8859_1);
    }

    @Test
    void contentLengthBodyIsFramedAndCounted() throws Exception {
        framer.reset(false, 1000);
        assertTrue(feedAll(OK_18));
        assertEquals(200, framer.status());
        assertEquals("OK", framer.reason());
        assertEquals("text/plain", framer.contentType());
        assertEquals("0123456789abcdefgh", body());
        assertEquals(OK_18.length() - 18, framer.headerBytes());
        assertEquals(18, framer.bodyBytes());
        assertTrue(framer.reusable());
        assertEquals(OK_18.substring(0, OK_18.length() - 18),
                new String(framer.headerBlock(), 0, framer.headerBlockLength(), StandardCharsets.ISO_8859_1));
    }

    @Test
    void responseSplitIntoOneByteReadsFramesTheSame() throws Exception {
        for (String response : new String[] {OK_18, CHUNKED}) {
            framer.reset(false, 1000);
            boolean done = false;
            for (int i = 0; i < response.length(); i++) {
                assertFalse(done, "complete before the last byte");
                done = feedAll(response.substring(i, i + 1));
            }
            assertTrue(done);
            assertEquals(response.length(), framer.totalBytes());
        }
        assertEquals("hello, world", body());
    }

    @Test
    void responseSplitAtEveryPossiblePointFramesTheSame() throws Exception {
        for (int cut = 1; cut < CHUNKED.length(); cut++) {
            framer.reset(false, 1000);
            assertFalse(feedAll(CHUNKED.substring(0, cut)), "complete after " + cut + " bytes");
            assertTrue(feedAll(CHUNKED.substring(cut)));
            assertEquals("hello, world", body(), "cut at " + cut);
        }
    }

    @Test
    void chunkedBodyWithExtensionsAndTrailersIsDecoded() throws Exception {
        framer.reset(false, 1000);
        assertTrue(feedAll(CHUNKED));
        assertEquals("hello, world", body());
        assertEquals(CHUNKED.length(), framer.totalBytes());
        assertTrue(framer.reusable());
    }

    @Test
    void pipelinedPairInOneReadLeavesTheSecondResponseInTheBuffer() throws Exception {
        ByteBuf in = buf(OK_18 + "HTTP/1.1 404 Not Found\r\nContent-Length: 3\r\n\r\nnop");
        framer.reset(false, 1000);
        assertTrue(framer.feed(in));
        assertEquals(200, framer.status());
        assertEquals("0123456789abcdefgh", body());
        assertTrue(in.isReadable());
        framer.reset(false, 1000);
        assertTrue(framer.feed(in));
        assertEquals(404, framer.status());
        assertEquals("Not Found", framer.reason());
        assertEquals("nop", body());
        assertFalse(in.isReadable());
    }

    @Test
    void headResponseHasNoBodyDespiteContentLength() throws Exception {
        framer.reset(true, 1000);
        assertTrue(framer.feed(buf("HTTP/1.1 200 OK\r\nContent-Length: 18\r\n\r\n")));
        assertEquals(0, framer.bodyBytes());
        assertTrue(framer.reusable());
    }

    @Test
    void statusesWithoutBodyCompleteAtTheEndOfHeaders() throws Exception {
        for (String status : new String[] {"204 No Content", "304 Not Modified"}) {
            framer.reset(false, 1000);
            ByteBuf in = buf("HTTP/1.1 " + status + "\r\nContent-Length: 5\r\n\r\nHTTP/1.1 200 OK\r\n");
            assertTrue(framer.feed(in), status);
            assertEquals(0, framer.bodyBytes());
            assertTrue(in.isReadable(), "the next response's bytes must stay unread");
        }
    }

    @Test
    void interimContinueIsSkippedAndItsBytesCounted() throws Exception {
        String interim = "HTTP/1.1 100 Continue\r\n\r\n";
        framer.reset(false, 1000);
        assertTrue(feedAll(interim + OK_18));
        assertEquals(200, framer.status());
        assertEquals(interim.length() + OK_18.length() - 18, framer.headerBytes());
        assertEquals("0123456789abcdefgh", body());
    }

    @Test
    void closeDelimitedBodyEndsOnlyWhenTheServerCloses() throws Exception {
        framer.reset(false, 1000);
        assertFalse(feedAll("HTTP/1.0 200 OK\r\nContent-Type: text/html\r\n\r\nsome"));
        assertFalse(feedAll(" more"));
        assertTrue(framer.closeReceived());
        assertEquals("some more", body());
        assertFalse(framer.reusable(), "a close-delimited response ends its connection");
    }

    @Test
    void closeInsideALengthDelimitedBodyIsPremature() throws Exception {
        framer.reset(false, 1000);
        assertFalse(feedAll("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nabc"));
        assertFalse(framer.closeReceived());
        assertEquals("after 3 of 100 body bytes", framer.progress());
    }

    @Test
    void keepAliveFollowsVersionAndConnectionHeader() throws Exception {
        framer.reset(false, 10);
        assertTrue(feedAll("HTTP/1.1 200 OK\r\nconnection: Close\r\nContent-Length: 0\r\n\r\n"));
        assertFalse(framer.reusable());
        framer.reset(false, 10);
        assertTrue(feedAll("HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n"));
        assertFalse(framer.reusable());
        framer.reset(false, 10);
        assertTrue(feedAll("HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n"));
        assertTrue(framer.reusable());
    }

    @Test
    void onlyTheKeptLimitIsCopiedButAllBytesAreCounted() throws Exception {
        framer.reset(false, 4);
        assertTrue(feedAll(OK_18));
        assertEquals("0123", body());
        assertEquals(18, framer.bodyBytes());
        framer.reset(false, 0);
        assertTrue(feedAll(CHUNKED));
        assertArrayEquals(new byte[0], framer.keptBody());
    }

    @Test
    void bareLineFeedsAreAccepted() throws Exception {
        framer.reset(false, 100);
        assertTrue(feedAll("HTTP/1.1 201 Created\nContent-Length: 2\n\nok"));
        assertEquals(201, framer.status());
        assertEquals("ok", body());
    }

    @Test
    void garbageIsAProtocolError() {
        framer.reset(false, 100);
        assertThrows(ProtocolException.class, () -> framer.feed(buf("SSH-2.0-OpenSSH_9.2\r\n")));
        framer.reset(false, 100);
        assertThrows(ProtocolException.class,
                () -> framer.feed(buf("HTTP/1.1 200 OK\r\nContent-Length: x1\r\n\r\n")));
        framer.reset(false, 100);
        assertThrows(ProtocolException.class,
                () -> framer.feed(buf("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")));
    }

    @Test
    void aHeaderBlockOverTheLimitIsAProtocolErrorWhetherItArrivesAtOnceOrInPieces() throws Exception {
        String line = "X-Filler: " + "f".repeat(1000) + "\r\n";
        String huge = "HTTP/1.1 200 OK\r\n" + line.repeat(ResponseFramer.MAX_HEADER_BYTES / line.length() + 1)
                + "Content-Length: 0\r\n\r\n";
        framer.reset(false, 100);
        ProtocolException atOnce = assertThrows(ProtocolException.class, () -> framer.feed(buf(huge)));
        assertTrue(atOnce.getMessage().contains("larger than " + ResponseFramer.MAX_HEADER_BYTES), atOnce.getMessage());
        framer.reset(false, 100);
        assertThrows(ProtocolException.class, () -> {
            for (int i = 0; i < huge.length(); i += 700) {
                framer.feed(buf(huge.substring(i, Math.min(huge.length(), i + 700))));
            }
        });
        // Just under the limit is a valid head.
        String big = "HTTP/1.1 200 OK\r\n" + line.repeat(ResponseFramer.MAX_HEADER_BYTES / line.length() - 1)
                + "Content-Length: 2\r\n\r\nok";
        framer.reset(false, 100);
        assertTrue(feedAll(big));
        assertEquals("ok", body());
    }
}
