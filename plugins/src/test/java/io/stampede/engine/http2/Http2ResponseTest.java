/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.http2;

import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Headers;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class Http2ResponseTest {
    private final Http2Response slot = new Http2Response();

    @Test
    void theSameFieldsAgainShowTheSameHeadAndAnotherHeadIsBuiltAnew() {
        Http2Headers ok = new DefaultHttp2Headers().status("200").add("content-type", "text/plain")
                .add("etag", "\"a\"");
        Http2Headers missing = new DefaultHttp2Headers().status("404").add("server", "nginx");

        assertEquals("HTTP/2 200\r\ncontent-type: text/plain\r\netag: \"a\"\r\n\r\n", head(ok));
        assertEquals("text/plain", slot.contentType());
        assertEquals("HTTP/2 200\r\ncontent-type: text/plain\r\netag: \"a\"\r\n\r\n", head(ok));
        assertEquals(200, slot.status());
        assertEquals("OK", slot.reason());
        assertEquals("text/plain", slot.contentType());

        assertEquals("HTTP/2 404\r\nserver: nginx\r\n\r\n", head(missing));
        assertEquals("Not Found", slot.reason());
        assertNull(slot.contentType());
        assertEquals("HTTP/2 404\r\nserver: nginx\r\n\r\n", head(missing));
        assertNull(slot.contentType(), "no content type carried over from an earlier head");

        assertEquals("HTTP/2 200\r\ncontent-type: text/plain\r\netag: \"a\"\r\n\r\n", head(ok));
        assertEquals("OK", slot.reason());
    }

    private String head(Http2Headers h) {
        slot.reset(1024);
        slot.headers(h);
        return new String(slot.headerBlock(), 0, slot.headerBlockLength(), StandardCharsets.ISO_8859_1);
    }
}
