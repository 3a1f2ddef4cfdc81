/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.http2;

import io.stampede.engine.http1.ResponseFramer;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a connection holds once a large body is done: the HTTP/1.1 framer and an HTTP/2 stream slot give the large
 * buffer up when the body is taken (a connection to a download server may never be used again) and at the next
 * response, and keep only the limit's worth while a body arrives.
 */
class LargeBodyMemoryTest {
    private static final int LARGE = 8 * 1024 * 1024;
    private static final int HELD_BETWEEN_RESPONSES = 64 * 1024;

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    @Test
    void theFramerGivesALargeBodysBufferUpAtTheNextResponse() throws Exception {
        ResponseFramer framer = new ResponseFramer();
        framer.reset(false, Integer.MAX_VALUE);
        framer.feed(Unpooled.wrappedBuffer(ascii("HTTP/1.1 200 OK\r\nContent-Length: " + LARGE + "\r\n\r\n")));
        byte[] chunk = new byte[64 * 1024];
        boolean done = false;
        for (int sent = 0; sent < LARGE; sent += chunk.length) {
            done = framer.feed(Unpooled.wrappedBuffer(chunk));
        }
        assertTrue(done);
        assertEquals(LARGE, framer.keptBodyLength());
        assertEquals(LARGE, framer.keptBody().length);
        assertTrue(framer.keptBodyBuffer().length <= HELD_BETWEEN_RESPONSES,
                "held once the body was taken, by a connection that may never be used again: "
                        + framer.keptBodyBuffer().length);

        framer.reset(false, Integer.MAX_VALUE);
        assertTrue(framer.feed(Unpooled.wrappedBuffer(ascii("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"))));
        assertEquals("ok", new String(framer.keptBody(), StandardCharsets.ISO_8859_1));
        assertTrue(framer.keptBodyBuffer().length <= HELD_BETWEEN_RESPONSES,
                "held after a small response that followed an 8 MiB one: " + framer.keptBodyBuffer().length);
    }

    @Test
    void theFramerKeepsOnlyTheLimitAndCountsTheRest() throws Exception {
        ResponseFramer framer = new ResponseFramer();
        framer.reset(false, 1000);
        framer.feed(Unpooled.wrappedBuffer(ascii("HTTP/1.1 200 OK\r\nContent-Length: " + LARGE + "\r\n\r\n")));
        for (int sent = 0; sent < LARGE; sent += 64 * 1024) {
            framer.feed(Unpooled.wrappedBuffer(new byte[64 * 1024]));
        }
        assertEquals(1000, framer.keptBodyLength());
        assertEquals(LARGE, framer.bodyBytes());
        assertTrue(framer.keptBodyBuffer().length <= 1000, "buffer " + framer.keptBodyBuffer().length);
    }

    @Test
    void anHttp2StreamSlotGivesALargeBodysBufferUpAtTheNextResponse() {
        Http2Response slot = new Http2Response();
        slot.reset(Integer.MAX_VALUE);
        slot.headers(new DefaultHttp2Headers().status("200"));
        for (int sent = 0; sent < LARGE; sent += 16 * 1024) {
            slot.data(Unpooled.wrappedBuffer(new byte[16 * 1024]), 0);
        }
        assertEquals(LARGE, slot.keptBodyLength());
        assertEquals(LARGE, slot.keptBody().length);
        assertTrue(slot.keptBodyBuffer().length <= HELD_BETWEEN_RESPONSES,
                "held once the body was taken: " + slot.keptBodyBuffer().length);

        slot.reset(Integer.MAX_VALUE);
        slot.headers(new DefaultHttp2Headers().status("200"));
        slot.data(Unpooled.wrappedBuffer(ascii("ok")), 0);
        assertEquals("ok", new String(slot.keptBody(), StandardCharsets.ISO_8859_1));
        assertTrue(slot.keptBodyBuffer().length <= HELD_BETWEEN_RESPONSES,
                "held after a small response that followed an 8 MiB one: " + slot.keptBodyBuffer().length);
    }
}
