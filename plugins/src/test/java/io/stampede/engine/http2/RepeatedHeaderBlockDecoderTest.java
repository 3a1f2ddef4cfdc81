/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.http2;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** HPACK blocks written by hand (RFC 7541): what a repeat may and may not skip. */
class RepeatedHeaderBlockDecoderTest {
    private static final int STATUS_200 = 0x88;          // indexed field 8 of the static table
    private static final int NEWEST_DYNAMIC = 0x80 | 62; // indexed field 62: the dynamic table's newest entry
    private static final int TABLE_SIZE_0 = 0x20;        // dynamic table size update to 0

    private final RepeatedHeaderBlockDecoder decoder =
            new RepeatedHeaderBlockDecoder(Http2CodecUtil.DEFAULT_HEADER_LIST_SIZE);

    @Test
    void withATableOf0AnEqualBlockIsAnsweredWithoutDecodingAndAnotherIsDecoded() throws Http2Exception {
        decoder.configuration().maxHeaderTableSize(0); // as when the server acknowledged our SETTINGS
        Http2Headers first = decode(block(TABLE_SIZE_0, STATUS_200).literal("x-a", "1"));
        assertEquals("200", first.status().toString());
        assertEquals("1", first.get("x-a").toString());

        Http2Headers plain = decode(block(STATUS_200).literal("x-a", "1"));
        assertEquals("1", plain.get("x-a").toString());
        ByteBuf again = block(STATUS_200).literal("x-a", "1").buf();
        assertSame(plain, decoder.decodeHeaders(3, again), "a byte-equal block is the last one's fields");
        assertEquals(0, again.readableBytes(), "the repeated block is consumed as a decoded one is");

        Http2Headers other = decode(block(STATUS_200).literal("x-a", "2"));
        assertNotSame(plain, other);
        assertEquals("2", other.get("x-a").toString());
        assertEquals("1", decode(block(STATUS_200).literal("x-a", "1")).get("x-a").toString());
    }

    @Test
    void withTheDefaultTableEqualBytesCanMeanOtherFieldsSoEveryBlockIsDecoded() throws Http2Exception {
        // Before the server acknowledged a table of 0, block B reads the newest entry and adds a new one: the
        // same bytes twice name different fields.
        decode(block(STATUS_200).literal("x-a", "1"));
        Http2Headers b1 = decode(block(STATUS_200, NEWEST_DYNAMIC).literal("x-b", "2"));
        Http2Headers b2 = decode(block(STATUS_200, NEWEST_DYNAMIC).literal("x-b", "2"));
        assertEquals("1", b1.get("x-a").toString());
        assertEquals(null, b2.get("x-a"));
        assertEquals(2, b2.getAll("x-b").size(), "the second B read x-b from the table the first B filled");
    }

    @Test
    void aBlockThatFailsFailsEachTime() throws Http2Exception {
        decoder.configuration().maxHeaderTableSize(0);
        decode(block(TABLE_SIZE_0, STATUS_200).literal("x-a", "1"));
        for (int i = 0; i < 2; i++) {
            assertThrows(Http2Exception.class, () -> decode(block(STATUS_200, NEWEST_DYNAMIC)),
                    "with a table of 0 there is no dynamic entry to refer to");
        }
    }

    private Http2Headers decode(Block b) throws Http2Exception {
        return decoder.decodeHeaders(1, b.buf());
    }

    private static Block block(int... indexed) {
        Block b = new Block();
        for (int i : indexed) {
            b.bytes.write(i);
        }
        return b;
    }

    /** A header block: indexed fields, then literals with incremental indexing and a new name (no Huffman). */
    private static final class Block {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        Block literal(String name, String value) {
            bytes.write(0x40);
            for (String s : new String[] {name, value}) {
                byte[] b = s.getBytes(StandardCharsets.US_ASCII);
                bytes.write(b.length);
                bytes.writeBytes(b);
            }
            return this;
        }

        ByteBuf buf() {
            return Unpooled.wrappedBuffer(bytes.toByteArray());
        }
    }
}
