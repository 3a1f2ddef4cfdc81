/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sampler;

import io.stampede.engine.ResponseFramer;
import org.apache.jmeter.samplers.SampleResult;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Copies a framed response into a SampleResult. One per sampler clone (so per JMeter thread): it remembers the last
 * reason phrase and Content-Type so that a steady stream of identical responses builds no new strings for them.
 */
final class ResultFiller {
    private static final String[] CODES = new String[600];

    static {
        for (int i = 100; i < CODES.length; i++) {
            CODES[i] = Integer.toString(i);
        }
    }

    private String lastReason = "";
    private String lastContentType;
    /** The last response's header block and body, as bytes and as handed to JMeter (most responses repeat them). */
    private final Repeated lastHeaders = new Repeated();
    private final Repeated lastBody = new Repeated();

    void fill(SampleResult res, ResponseFramer r) {
        int status = r.status();
        res.setResponseCode(status < CODES.length ? CODES[status] : Integer.toString(status));
        if (!r.reasonEquals(lastReason)) {
            lastReason = r.reason();
        }
        res.setResponseMessage(lastReason);
        if (!lastHeaders.sameAs(r.headerBlock(), r.headerBlockLength())) {
            lastHeaders.text = new String(r.headerBlock(), 0, r.headerBlockLength(), StandardCharsets.ISO_8859_1);
        }
        res.setResponseHeaders(lastHeaders.text);
        if (!r.contentTypeEquals(lastContentType)) {
            lastContentType = r.contentType();
        }
        if (lastContentType != null) {
            res.setContentType(lastContentType);
        }
        if (!lastBody.sameAs(r.keptBodyBuffer(), r.keptBodyLength())) {
            lastBody.data = r.keptBody();
        }
        // Shared between results while identical: JMeter replaces response data, it never writes into it.
        res.setResponseData(lastBody.data);
        res.setHeadersSize((int) Math.min(Integer.MAX_VALUE, r.headerBytes()));
        res.setBodySize(r.bodyBytes());
        res.setSuccessful(status >= 200 && status < 400);
    }

    static void fail(SampleResult res, Throwable t) {
        NonHttpFailure f = NonHttpFailure.of(t);
        res.setResponseCode(f.responseCode());
        res.setResponseMessage(f.responseMessage());
        res.setResponseData(String.valueOf(t), StandardCharsets.UTF_8.name());
        res.setSuccessful(false);
    }

    /**
     * The last bytes seen and what was made of them. The Date header changes once a second, so a steady stream of
     * responses makes one header string per second instead of one per response.
     */
    private static final class Repeated {
        private byte[] bytes = new byte[0];
        private int length = -1;
        String text;
        byte[] data;

        /** Whether {@code b[0..n)} equals the last bytes; if not, remembers them (the caller then makes the rest). */
        boolean sameAs(byte[] b, int n) {
            if (n == length && Arrays.equals(b, 0, n, bytes, 0, n)) {
                return true;
            }
            if (bytes.length < n) {
                bytes = new byte[Math.max(n, bytes.length * 2)];
            }
            System.arraycopy(b, 0, bytes, 0, n);
            length = n;
            return false;
        }
    }
}
