/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.httprequest;

import io.stampede.sampler.BodyLimits;
import org.apache.jmeter.protocol.http.sampler.HTTPSampleResult;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A sample's body within {@link BodyLimits}: JMeter's store limit honoured, anything larger refused by name. */
class ResponseBodyTest {
    private static final byte[] TEXT = "a line of a page that compresses well\n".repeat(3000)
            .getBytes(StandardCharsets.US_ASCII);
    private final EngineHttpRequest element = new EngineHttpRequest();

    static byte[] gzip(byte[] b, int times) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream g = new GZIPOutputStream(out)) {
            for (int i = 0; i < times; i++) {
                g.write(b);
            }
        }
        return out.toByteArray();
    }

    private byte[] read(BodyLimits limits, String coding, byte[] kept, long received) throws IOException {
        byte[] head = ("HTTP/1.1 200 OK\r\nContent-Length: " + received + "\r\n"
                + (coding == null ? "" : "Content-Encoding: " + coding + "\r\n") + "\r\n")
                .getBytes(StandardCharsets.US_ASCII);
        return ResponseBody.read(element, new HTTPSampleResult(), limits, ResponseHead.parse(head, head.length), kept,
                received > kept.length, received);
    }

    @Test
    void withJMetersStoreLimitTheKeptStartIsTheBodyEvenWhenItCutsAnEncodedOne() throws IOException {
        BodyLimits store = new BodyLimits(1000, BodyLimits.DEFAULT_MAX);
        assertEquals(1000, store.rawKept(false), "the connection keeps no more than JMeter stores");
        byte[] start = Arrays.copyOf(TEXT, 1000);
        assertArrayEquals(start, read(store, null, start, TEXT.length));

        byte[] encoded = gzip(TEXT, 1);
        byte[] decoded = read(store, "gzip", Arrays.copyOf(encoded, 1000), encoded.length);
        assertTrue(decoded.length > 0, "the cut gzip's start is decoded, its end is not an error");
        assertArrayEquals(Arrays.copyOf(TEXT, decoded.length), decoded);
    }

    @Test
    void withoutJMetersLimitABodyOverTheMaximumFailsTheSampleNamingBothProperties() throws IOException {
        BodyLimits limits = new BodyLimits(0, 1000);
        assertEquals(1000, limits.rawKept(false));
        BodyTooLargeException raw = assertThrows(BodyTooLargeException.class,
                () -> read(limits, null, Arrays.copyOf(TEXT, 1000), TEXT.length));
        assertTrue(raw.getMessage().contains("of " + TEXT.length + " bytes is larger than "
                + "stampede.httprequest.max_body_bytes (1000 bytes)"), raw.getMessage());
        assertTrue(raw.getMessage().contains("httpsampler.max_bytes_to_store_per_request"), raw.getMessage());

        byte[] encoded = gzip(TEXT, 1);
        assertTrue(encoded.length < 1000, "the compressed body fits: " + encoded.length);
        BodyTooLargeException bomb = assertThrows(BodyTooLargeException.class,
                () -> read(limits, "gzip", encoded, encoded.length));
        assertTrue(bomb.getMessage().contains("decodes to more than stampede.httprequest.max_body_bytes"),
                bomb.getMessage());

        assertArrayEquals(TEXT, read(new BodyLimits(0, TEXT.length), "gzip", encoded, encoded.length),
                "a body of exactly the maximum is whole");
    }

    @Test
    void theMaximumIsReadFromItsPropertyAndABadValueIsNamed() {
        assertEquals(BodyLimits.DEFAULT_MAX, BodyLimits.of(0, "").max());
        assertEquals(4096, BodyLimits.of(0, " 4096 ").max());
        IllegalArgumentException words = assertThrows(IllegalArgumentException.class, () -> BodyLimits.of(0, "64MB"));
        assertTrue(words.getMessage().startsWith("JMeter property stampede.httprequest.max_body_bytes '64MB' is not "
                + "a number of bytes: use 1 to"), words.getMessage());
        IllegalArgumentException zero = assertThrows(IllegalArgumentException.class, () -> BodyLimits.of(0, "0"));
        assertTrue(zero.getMessage().contains("out of range"), zero.getMessage());
    }
}
