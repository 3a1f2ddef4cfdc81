/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.httprequest;

import org.apache.jmeter.protocol.http.control.AuthManager;
import org.apache.jmeter.protocol.http.control.Authorization;
import org.apache.jmeter.protocol.http.sampler.HTTPAbstractImpl;
import org.apache.jmeter.protocol.http.sampler.HTTPSampleResult;
import org.apache.jmeter.protocol.http.sampler.HTTPSamplerBase;
import org.apache.jmeter.protocol.http.sampler.HTTPSamplerFactory;
import org.apache.jmeter.protocol.http.util.HTTPConstants;
import org.apache.jmeter.util.JMeterUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the engine does not do, and the way such a sample still behaves exactly as in stock JMeter: it runs on stock's
 * own HttpClient 4 implementation, bound to the same element (same properties and managers), and jmeter.log gets one
 * WARN per sampler name and feature. Never a silent change of behaviour.
 *
 * <p>The features: a proxy server (the sampler's or JMeter's -H/-P), Kerberos and NTLM (a domain) in the
 * Authorization Manager, a client certificate (Keystore Configuration or
 * {@code javax.net.ssl.keyStore}) for https, the slow-connection simulation ({@code httpclient.socket.*.cps}), and
 * WebDAV methods.
 */
final class Hc4Fallback {
    private static final Logger LOG = LoggerFactory.getLogger(Hc4Fallback.class);
    private static final Method SAMPLE;
    private static final Method THREAD_FINISHED;
    private static final Method LOOP_RESTART;
    /** Sampler name + feature already warned about; cleared when a test ends (the one WARN is per test). */
    private static final Set<String> WARNED = ConcurrentHashMap.newKeySet();
    private static final Set<String> ENGINE_METHODS = Set.of(HTTPConstants.GET, HTTPConstants.POST, HTTPConstants.PUT,
            HTTPConstants.PATCH, HTTPConstants.DELETE, HTTPConstants.HEAD, HTTPConstants.OPTIONS,
            HTTPConstants.TRACE);

    static {
        try {
            // Stock's implementations expose their contract to JMeter's own package only.
            SAMPLE = HTTPAbstractImpl.class.getDeclaredMethod("sample", URL.class, String.class, boolean.class,
                    int.class);
            THREAD_FINISHED = HTTPAbstractImpl.class.getDeclaredMethod("threadFinished");
            LOOP_RESTART = HTTPAbstractImpl.class.getDeclaredMethod("notifyFirstSampleAfterLoopRestart");
            SAMPLE.setAccessible(true);
            THREAD_FINISHED.setAccessible(true);
            LOOP_RESTART.setAccessible(true);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final HTTPSamplerBase element;
    private HTTPAbstractImpl hc4;

    Hc4Fallback(HTTPSamplerBase element) {
        this.element = element;
    }

    /** The feature of this request the engine does not support, in the words of the README's table, or null. */
    @SuppressWarnings("deprecation") // KERBEROS is no longer offered in the GUI but old plans carry it
    static String unsupportedFeature(HTTPSamplerBase s, URL url, String method) {
        if (!s.getProxyHost().isEmpty() || !System.getProperty("http.proxyHost", "").isEmpty()
                || !System.getProperty("https.proxyHost", "").isEmpty()) {
            return "proxy server";
        }
        if (!ENGINE_METHODS.contains(method)) {
            return "method " + method;
        }
        AuthManager auth = s.getAuthManager();
        if (auth != null) {
            Authorization a = auth.getAuthForURL(url);
            if (a != null && a.getMechanism() == AuthManager.Mechanism.KERBEROS) {
                return "Kerberos authentication";
            }
            if (a != null && !a.getDomain().isEmpty()) {
                return "NTLM authentication (a domain in the Authorization Manager)";
            }
        }
        if (HTTPConstants.PROTOCOL_HTTPS.equalsIgnoreCase(url.getProtocol()) && (s.getKeystoreConfig() != null
                || !System.getProperty("javax.net.ssl.keyStore", "").isEmpty())) {
            return "client certificate (keystore)";
        }
        if (JMeterUtils.getPropDefault("httpclient.socket.http.cps", 0) > 0
                || JMeterUtils.getPropDefault("httpclient.socket.https.cps", 0) > 0) {
            return "slow connection simulation (httpclient.socket.*.cps)";
        }
        return null;
    }

    /** The sample on stock's HttpClient 4, after the one WARN naming the sampler and the feature. */
    HTTPSampleResult sample(URL url, String method, boolean areFollowingRedirect, int depth, String feature) {
        if (WARNED.add(element.getName() + '\n' + feature)) {
            LOG.warn("HTTP Request '{}': {} is not supported by the Stampede engine; this sampler runs on JMeter's "
                    + "HttpClient 4 implementation", element.getName(), feature);
        }
        try {
            if (hc4 == null) {
                hc4 = HTTPSamplerFactory.getImplementation(HTTPSamplerFactory.IMPL_HTTP_CLIENT4, element);
            }
            return (HTTPSampleResult) SAMPLE.invoke(hc4, url, method, areFollowingRedirect, depth);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException("JMeter's HttpClient 4 sampler failed", e.getCause());
        } catch (Exception e) {
            throw new IllegalStateException("cannot run JMeter's HttpClient 4 sampler", e);
        }
    }

    /** Forwarded as stock's HTTPSamplerProxy forwards it. */
    void notifyFirstSampleAfterLoopRestart() {
        call(LOOP_RESTART);
    }

    void threadFinished() {
        call(THREAD_FINISHED);
    }

    boolean interrupt() {
        return hc4 != null && hc4.interrupt();
    }

    private void call(Method m) {
        if (hc4 != null) {
            try {
                m.invoke(hc4);
            } catch (ReflectiveOperationException e) {
                LOG.warn("JMeter's HttpClient 4 sampler failed in {}", m.getName(), e);
            }
        }
    }

    static void testEnded() {
        WARNED.clear();
    }
}
