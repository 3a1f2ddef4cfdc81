/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.httprequest;

import org.apache.http.Header;
import org.apache.http.auth.AuthenticationException;
import org.apache.http.auth.MalformedChallengeException;
import org.apache.http.auth.UsernamePasswordCredentials;
import org.apache.http.impl.auth.BasicScheme;
import org.apache.http.impl.auth.DigestScheme;
import org.apache.http.message.BasicHeader;
import org.apache.http.message.BasicHttpRequest;
import org.apache.http.protocol.BasicHttpContext;
import org.apache.jmeter.protocol.http.control.AuthManager;
import org.apache.jmeter.protocol.http.control.Authorization;
import org.apache.jmeter.util.JMeterUtils;

import java.net.URL;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The HTTP Authorization Manager's Basic and Digest schemes, as stock JMeter's HttpClient 4 sampler applies them:
 * Basic is sent with the first request when the entry's mechanism is BASIC ({@code httpclient4.auth.preemptive},
 * default true); otherwise a 401 challenge is answered once, Digest preferred over Basic, on the same sample, and
 * only a challenge of the entry's realm when the entry names one. The
 * header values come from HttpClient 4's own schemes (which stock JMeter ships), so nonce counts, cnonce format and
 * charset are stock's.
 */
final class Authentication {
    static final boolean PREEMPTIVE = JMeterUtils.getPropDefault("httpclient4.auth.preemptive", true);
    private static final Pattern REALM = Pattern.compile("(?i)\\brealm\\s*=\\s*(?:\"([^\"]*)\"|([^,\\s]+))");

    private Authentication() {
    }

    /** The Authorization value to send unasked, or null. */
    @SuppressWarnings("deprecation") // BASIC_DIGEST: stock still treats it as BASIC
    static String preemptive(AuthManager manager, URL url, String method, String target) {
        if (!PREEMPTIVE || manager == null) {
            return null;
        }
        Authorization auth = manager.getAuthForURL(url);
        if (auth == null || !(auth.getMechanism() == AuthManager.Mechanism.BASIC
                || auth.getMechanism() == AuthManager.Mechanism.BASIC_DIGEST)) {
            return null;
        }
        return basic(auth, method, target);
    }

    /**
     * The Authorization value answering a 401's challenges, or null when there are no credentials for the URL, no
     * scheme we answer, or Basic was already sent (a repeated Basic would fail again).
     *
     * @param challenges the WWW-Authenticate values of the 401
     */
    static String answer(AuthManager manager, URL url, String method, String target, Iterable<String> challenges,
                         boolean basicSent) throws AuthenticationException, MalformedChallengeException {
        if (manager == null) {
            return null;
        }
        Authorization auth = manager.getAuthForURL(url);
        if (auth == null) {
            return null;
        }
        String basic = null;
        for (String challenge : challenges) {
            if (!auth.getRealm().isEmpty() && !auth.getRealm().equals(realmOf(challenge))) {
                continue; // stock's credentials are scoped to the entry's realm when it names one
            }
            String scheme = challenge.trim().toLowerCase(Locale.ROOT);
            if (scheme.startsWith("digest")) {
                return digest(auth, method, target, challenge);
            }
            if (scheme.startsWith("basic") && !basicSent) {
                basic = basic(auth, method, target);
            }
        }
        return basic;
    }

    /** The realm parameter of a challenge, or null. */
    static String realmOf(String challenge) {
        Matcher m = REALM.matcher(challenge);
        return m.find() ? (m.group(1) != null ? m.group(1) : m.group(2)) : null;
    }

    static String basic(Authorization auth, String method, String target) {
        try {
            return valueOf(new BasicScheme().authenticate(credentials(auth), new BasicHttpRequest(method, target),
                    new BasicHttpContext()));
        } catch (AuthenticationException e) {
            throw new IllegalStateException("Basic never refuses user/password credentials", e);
        }
    }

    static String digest(Authorization auth, String method, String target, String challenge)
            throws AuthenticationException, MalformedChallengeException {
        DigestScheme scheme = new DigestScheme();
        scheme.processChallenge(new BasicHeader("WWW-Authenticate", challenge));
        return valueOf(scheme.authenticate(credentials(auth), new BasicHttpRequest(method, target),
                new BasicHttpContext()));
    }

    private static UsernamePasswordCredentials credentials(Authorization auth) {
        return new UsernamePasswordCredentials(auth.getUser(), auth.getPass());
    }

    private static String valueOf(Header h) {
        return h.getValue();
    }
}
