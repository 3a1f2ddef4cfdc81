/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.httprequest;

import org.apache.http.HttpVersion;
import org.apache.http.message.BasicHttpResponse;
import org.apache.jmeter.protocol.http.sampler.HTTPSampleResult;
import org.apache.jmeter.util.JMeterUtils;

/** The Cache Manager's side of a sample: a fresh entry answered without a request, and a response's details saved. */
final class CachedResults {
    private static final String CACHED_MODE = JMeterUtils.getPropDefault("cache_manager.cached_resource_mode",
            "RETURN_NO_SAMPLE");

    private CachedResults() {
    }

    /**
     * A GET the Cache Manager says is fresh: no request, reported as cache_manager.cached_resource_mode says; null
     * when that mode reports no sample.
     */
    static HTTPSampleResult inCache(HTTPSampleResult res) {
        switch (CACHED_MODE) {
            case "RETURN_200_CACHE" -> {
                res.sampleEnd();
                res.setResponseCodeOK();
                res.setResponseMessage(JMeterUtils.getPropDefault("RETURN_200_CACHE.message", "(ex cache)"));
                res.setSuccessful(true);
                return res;
            }
            case "RETURN_CUSTOM_STATUS" -> {
                res.sampleEnd();
                res.setResponseCode(JMeterUtils.getProperty("RETURN_CUSTOM_STATUS.code"));
                res.setResponseMessage(JMeterUtils.getProperty("RETURN_CUSTOM_STATUS.message"));
                res.setSuccessful(true);
                return res;
            }
            default -> {
                return null;
            }
        }
    }

    /** The response head as the HttpClient 4 response the Cache Manager reads its validators from. */
    static BasicHttpResponse stockResponse(ResponseHead head) {
        BasicHttpResponse r = new BasicHttpResponse(HttpVersion.HTTP_1_1, head.status(), head.reason());
        HeaderFields fields = head.fields();
        for (int i = 0; i < fields.size(); i++) {
            r.addHeader(fields.name(i), fields.value(i));
        }
        return r;
    }
}
