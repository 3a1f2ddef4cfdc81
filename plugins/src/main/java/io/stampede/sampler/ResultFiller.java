/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in compliance with
 * the License. You may obtain a copy of the License at http://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sampler;

import io.stampede.engine.ResponseFramer;
import org.apache.jmeter.samplers.SampleResult;

import java.nio.charset.StandardCharsets;

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

    void fill(SampleResult res, ResponseFramer r) {
        int status = r.status();
        res.setResponseCode(status < CODES.length ? CODES[status] : Integer.toString(status));
        if (!r.reasonEquals(lastReason)) {
            lastReason = r.reason();
        }
        res.setResponseMessage(lastReason);
        res.setResponseHeaders(new String(r.headerBlock(), 0, r.headerBlockLength(), StandardCharsets.ISO_8859_1));
        if (!r.contentTypeEquals(lastContentType)) {
            lastContentType = r.contentType();
        }
        if (lastContentType != null) {
            res.setContentType(lastContentType);
        }
        res.setResponseData(r.keptBody());
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
}
