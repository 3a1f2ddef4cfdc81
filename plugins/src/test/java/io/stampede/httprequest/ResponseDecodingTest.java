/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.httprequest;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Content-Encoding undone as stock does, and the response head read and shown as stock shows it. */
class ResponseDecodingTest {
    private static final String TEXT = "decoded by stampede, ".repeat(20);

    private static String read(String coding, byte[] body) throws IOException {
        try (InputStream in = ContentDecoding.open(coding, body, body.length)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static byte[] gzip(byte[] b) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream g = new GZIPOutputStream(out)) {
            g.write(b);
        }
        return out.toByteArray();
    }

    private static byte[] deflate(byte[] b, boolean zlib) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (DeflaterOutputStream d = new DeflaterOutputStream(out, new Deflater(6, !zlib))) {
            d.write(b);
        }
        return out.toByteArray();
    }

    @Test
    void gzipDeflateAndBrotliAreDecoded() throws IOException {
        byte[] raw = TEXT.getBytes(StandardCharsets.UTF_8);
        assertEquals(TEXT, read("gzip", gzip(raw)));
        assertEquals(TEXT, read("x-gzip", gzip(raw)));
        assertEquals(TEXT, read("deflate", deflate(raw, true)));
        assertEquals(TEXT, read("deflate", deflate(raw, false)), "raw deflate, as browsers and stock accept it");
        // "brotli decoded by stampede", compressed by Python's brotli module (org.brotli:dec has no encoder)
        byte[] br = HexFormat.of().parseHex("8b0c8062726f746c69206465636f646564206279207374616d7065646503");
        assertEquals("brotli decoded by stampede", read("br", br));
    }

    @Test
    void identityUnknownCodingsAndEmptyBodiesStayAsTheyCame() throws IOException {
        assertEquals("plain", read(null, "plain".getBytes(StandardCharsets.UTF_8)));
        assertEquals("plain", read("identity", "plain".getBytes(StandardCharsets.UTF_8)));
        assertEquals("plain", read("compress", "plain".getBytes(StandardCharsets.UTF_8)));
        assertEquals("", read("gzip", new byte[0]));
    }

    @Test
    void codingsApplyInTheListedOrderAndCorruptDataFailsTheRead() throws IOException {
        byte[] raw = TEXT.getBytes(StandardCharsets.UTF_8);
        assertEquals(TEXT, read("deflate, gzip", deflate(gzip(raw), true)), "stock's nesting order");
        assertThrows(IOException.class, () -> read("gzip", "not gzip at all".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void headIsParsedAndShownAsStockShowsIt() {
        byte[] block = ("HTTP/1.1 302 Found\r\nLocation: /next\r\nSet-Cookie: a=1\r\nX-Fold: one\r\n two\r\n"
                + "Set-Cookie: b=2\r\nContent-Type:text/html; charset=utf-8\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1);
        ResponseHead h = ResponseHead.parse(block, block.length);
        assertEquals(302, h.status());
        assertEquals("Found", h.reason());
        assertEquals("/next", h.last("location"));
        assertEquals(List.of("a=1", "b=2"), h.all("Set-Cookie"));
        assertEquals("one two", h.last("X-Fold"));
        assertEquals("text/html; charset=utf-8", h.last("Content-Type"));
        assertEquals(5, h.fieldCount());
        assertEquals("HTTP/1.1 302 Found\nLocation: /next\nSet-Cookie: a=1\nX-Fold: one two\nSet-Cookie: b=2\n"
                + "Content-Type:text/html; charset=utf-8\n", h.text());
    }

    @Test
    void theInPlaceParseGivesWhatTheLineByLineParseGives() {
        List<String> heads = List.of(
                "HTTP/1.1 200 OK\r\nServer: nginx\r\nContent-Length: 18\r\nSet-Cookie: s=c1; Path=/\r\n\r\n",
                "HTTP/1.1 200 OK\nServer: nginx\nContent-Type: text/plain\n\n",
                "HTTP/1.1 200 OK\r\nA: 1\nB: 2\r\n\r\n",
                "HTTP/1.1 204\r\nX-Empty:\r\nX-Spaces: \t padded \t\r\nName : v\r\n\r\n",
                "HTTP/1.0 404 Not  Found here \r\nX: a:b:c\r\n\r\n",
                "HTTP/1.1 200 OK\r\nNo-Blank-Line: yes",
                "HTTP/1.1 301 Moved\r\nLocation: /x\r\n\r\n",
                "HTTP/1.1 200 OK\r\n\r\n",
                "HTTP/1.1 200 Caf\u00e9\r\nX-Latin: caf\u00e9 \u00a0\r\nX-Ctl:\u0001v\u0001\r\n\r\n",
                "HTTP/1.1 200 OK\r\nX: 1\r\n two\r\nY: 2\r\n\r\n");
        for (String head : heads) {
            byte[] block = head.getBytes(StandardCharsets.ISO_8859_1);
            ResponseHead fast = ResponseHead.parse(block, block.length);
            ResponseHead lines = ResponseHead.parseLines(head, block.length);
            assertEquals(lines.status(), fast.status(), head);
            assertEquals(lines.reason(), fast.reason(), head);
            assertEquals(lines.text(), fast.text(), head);
            assertEquals(lines.fields().text(true), fast.fields().text(true), head);
            assertEquals(lines.fieldCount(), fast.fieldCount(), head);
        }
        byte[] block = heads.get(3).getBytes(StandardCharsets.ISO_8859_1);
        ResponseHead h = ResponseHead.parse(block, block.length);
        assertEquals("HTTP/1.1 204 \nX-Empty:\nX-Spaces: \t padded \t\nName : v\n", h.text());
        assertEquals("X-Empty: \nX-Spaces: padded\nName: v\n", h.fields().text(true));
    }
}
