/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.httprequest;

import org.apache.jmeter.protocol.http.sampler.hc.LaxDeflateInputStream;
import org.apache.jmeter.protocol.http.sampler.hc.LaxGZIPInputStream;
import org.apache.jmeter.util.JMeterUtils;
import org.brotli.dec.BrotliInputStream;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;

/**
 * Undoes a response's Content-Encoding as stock JMeter's HttpClient 4 sampler does: gzip / x-gzip, deflate (zlib or
 * raw) and br, with the same decoder classes and the same relax-mode properties
 * ({@code httpclient4.gzip_relax_mode}, {@code httpclient4.deflate_relax_mode}); identity and unknown codings are
 * left as they are. The codings are applied in the order the header lists them, which is stock's order. The
 * response headers keep Content-Encoding and Content-Length (stock restores them too).
 */
final class ContentDecoding {
    private static final boolean GZIP_RELAX = JMeterUtils.getPropDefault("httpclient4.gzip_relax_mode", false);
    private static final boolean DEFLATE_RELAX = JMeterUtils.getPropDefault("httpclient4.deflate_relax_mode", false);

    private ContentDecoding() {
    }

    /**
     * The body to read: decoded through each known coding of {@code contentEncoding} (null: none), or the raw bytes.
     * An empty body is never decoded (stock skips entities of length 0).
     */
    static InputStream open(String contentEncoding, byte[] body, int length) throws IOException {
        InputStream in = new ByteArrayInputStream(body, 0, length);
        if (contentEncoding == null || length == 0) {
            return in;
        }
        for (String element : contentEncoding.split(",")) {
            String coding = element.trim();
            int params = coding.indexOf(';');
            if (params >= 0) {
                coding = coding.substring(0, params).trim();
            }
            switch (coding.toLowerCase(Locale.ROOT)) {
                case "gzip", "x-gzip" -> in = new LaxGZIPInputStream(in, GZIP_RELAX);
                case "deflate" -> in = new LaxDeflateInputStream(in, DEFLATE_RELAX);
                case "br" -> in = new BrotliInputStream(in);
                default -> {
                    // identity or a coding stock does not know either: the bytes stay as they came
                }
            }
        }
        return in;
    }
}
