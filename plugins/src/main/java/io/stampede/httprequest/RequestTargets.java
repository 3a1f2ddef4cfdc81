/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.httprequest;

import java.net.URISyntaxException;
import java.net.URL;
import java.util.HashMap;
import java.util.Map;

/**
 * One thread's request-targets of the URLs it sent to lately. A plan's samplers send to a few URLs over and over, and
 * parsing each into a URI and normalizing it as HttpClient 4 does cost more per sample than the rest of building the
 * request. Keyed by the URL's text, so an equal URL gives the same target; bounded, cleared when full (a plan whose
 * every URL differs only pays the map on top).
 */
final class RequestTargets {
    private static final int MAX = 256;

    private final Map<String, String> byUrl = new HashMap<>();

    /**
     * @throws URISyntaxException when the URL is no valid URI (never cached)
     */
    String of(URL url) throws URISyntaxException {
        String key = url.toString();
        String target = byUrl.get(key);
        if (target == null) {
            target = OutgoingRequest.targetOf(url);
            if (byUrl.size() >= MAX) {
                byUrl.clear();
            }
            byUrl.put(key, target);
        }
        return target;
    }
}
