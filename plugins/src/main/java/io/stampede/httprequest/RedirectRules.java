/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.httprequest;

import org.apache.http.client.ClientProtocolException;
import org.apache.http.client.RedirectException;
import org.apache.jmeter.protocol.http.util.HTTPConstants;
import org.apache.jmeter.util.JMeterUtils;

import java.util.Set;

/**
 * HttpClient 4's rules for "Redirect automatically" (its LaxRedirectStrategy, as stock configures it) and for which
 * requests carry a body.
 */
final class RedirectRules {
    private static final int MAX_REDIRECTS = JMeterUtils.getPropDefault("httpsampler.max_redirects", 20);
    /** The methods stock's redirect strategy follows for 301, 302, 307 and 308. */
    private static final Set<String> REDIRECTABLE = Set.of(HTTPConstants.GET, HTTPConstants.POST,
            HTTPConstants.HEAD, HTTPConstants.DELETE);

    private RedirectRules() {
    }

    /** Whether a response of {@code status} with a Location to {@code method} is followed. */
    static boolean followed(int status, String method) {
        return switch (status) {
            case 301, 302, 307, 308 -> REDIRECTABLE.contains(method);
            case 303 -> true;
            default -> false;
        };
    }

    /** @throws ClientProtocolException stock's failure once the redirect after {@code redirects} is one too many */
    static void checkCount(int redirects) throws ClientProtocolException {
        if (redirects + 1 > MAX_REDIRECTS) {
            throw new ClientProtocolException(new RedirectException("Maximum redirects (" + MAX_REDIRECTS
                    + ") exceeded"));
        }
    }

    /** Whether the next hop keeps method and body: HEAD, and 307/308 of other methods than GET; else it is a GET. */
    static boolean keepsMethod(int status, String method) {
        return method.equals(HTTPConstants.HEAD) || ((status == 307 || status == 308)
                && !method.equals(HTTPConstants.GET));
    }

    /** HttpClient 4 gives GET a body only for "Body Data" or a file as body, and never when following a redirect. */
    static boolean carriesBody(EngineHttpRequest element, String method, boolean areFollowingRedirect) {
        return switch (method) {
            case HTTPConstants.POST, HTTPConstants.PUT, HTTPConstants.PATCH, HTTPConstants.DELETE -> true;
            case HTTPConstants.GET -> !areFollowingRedirect && ((!element.hasArguments()
                    && element.getSendFileAsPostBody()) || element.getSendParameterValuesAsPostBody());
            default -> false;
        };
    }
}
