/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.httprequest;

import io.stampede.sampler.BodyLimits;
import io.stampede.sampler.ResultFiller;
import org.apache.jmeter.protocol.http.sampler.HTTPSampleResult;
import org.apache.jmeter.protocol.http.util.HTTPConstants;

import java.io.IOException;

/**
 * Fills an HTTP Request's result from the engine's response as stock fills it after its exchange: request headers as
 * sent (Cookie left out, it has its own field), Content-Type and data encoding, the decoded body (or its MD5), end
 * time, code, message, success, response headers, sizes, and the URL finally reached. Connect and Latency are the
 * engine's measurements from the sample's start: Connect when this sample opened a connection, Latency at the first
 * response byte, the status and sizes, each as {@link ResultFiller} writes them for every sampler. Failures are
 * JMeter's own errorResult's, with stock's exception names ({@link StockFailures}).
 */
final class HttpResultFiller {
    private HttpResultFiller() {
    }

    /**
     * @param requestHeaders the request's header fields as sent
     * @throws BodyTooLargeException after filling everything else, when the body is over the limits
     */
    static void fill(EngineHttpRequest element, BodyLimits limits, HTTPSampleResult res, OutgoingRequest req,
                     String requestHeaders, EngineResponse r, long startNanos) throws IOException {
        ResponseHead head = r.head();
        res.setRequestHeaders(requestHeaders);
        String contentType = head.last(HTTPConstants.HEADER_CONTENT_TYPE);
        if (contentType != null) {
            res.setContentType(contentType);
            res.setEncodingAndType(contentType);
        }
        int status = head.status();
        BodyTooLargeException tooLarge = null;
        if (!req.head() && status != 204 && status != 304) {
            try {
                res.setResponseData(ResponseBody.read(element, res, limits, head, r.body(), r.bodyCut(),
                        r.bodyBytes()));
            } catch (BodyTooLargeException e) {
                tooLarge = e; // the sample still shows what arrived: its head and byte counts
            }
        }
        res.sampleEnd();
        if (r.connectEndNanos() != 0) {
            res.setConnectTime(ResultFiller.connectMillis(r.connectEndNanos() - startNanos));
        }
        res.setLatency(ResultFiller.latencyMillis(startNanos, r.firstByteNanos()));
        ResultFiller.statusAndSizes(res, status, r.headerBytes(), r.bodyBytes());
        res.setResponseMessage(head.reason());
        res.setSuccessful(element.successCode(status));
        res.setResponseHeaders(head.text());
        res.setSentBytes(r.sentBytes() >= 0 ? r.sentBytes() : req.encode().length);
        res.setURL(req.url());
        if (tooLarge != null) {
            throw tooLarge;
        }
    }
}
