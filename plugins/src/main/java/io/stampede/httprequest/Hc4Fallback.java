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
 * {@code javax.net.ssl.keyStore}) for https, the slow-connection simulation ({@code httpclient.socket.*.cps}),
 * WebDAV methods, and the Java implementation chosen in the plan (or by {@code jmeter.httpsampler}), which then runs
 * on stock's Java implementation as it would in stock JMeter. A plan naming HttpClient4 explicitly runs on the engine
 * (the engine stands in for HttpClient 4, and the parity suite holds it to that), with one INFO per sampler name.
 */
final class Hc4Fallback {
    private static final Logger LOG = LoggerFactory.getLogger(Hc4Fallback.class);
    private static final Method SAMPLE;
    private static final Method THREAD_FINISHED;
    private static final Method LOOP_RESTART;
    /** Sampler name + feature already warned about; cleared when a test ends (the one WARN is per test). */
    private static final Set<String> WARNED = ConcurrentHashMap.newKeySet();
    /** Samplers that named HttpClient4 explicitly and were told (INFO) that the engine runs them; cleared likewise. */
    private static final Set<String> NOTED = ConcurrentHashMap.newKeySet();
    /** JMeter's -H/-P; read once, as stock's HttpClient 4 implementation reads it (a static of its class). */
    private static final boolean SYSTEM_PROXY = !System.getProperty("http.proxyHost", "").isEmpty()
            || !System.getProperty("https.proxyHost", "").isEmpty();
    /** Read once, as stock reads them (statics of its HttpClient 4 implementation). */
    private static final boolean SLOW_CONNECTION = JMeterUtils.getPropDefault("httpclient.socket.http.cps", 0) > 0
            || JMeterUtils.getPropDefault("httpclient.socket.https.cps", 0) > 0;
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
        String implementation = implementation(s);
        if (HTTPSamplerFactory.IMPL_JAVA.equals(implementation)
                || HTTPSamplerFactory.HTTP_SAMPLER_JAVA.equals(implementation)) {
            return "the Java implementation (Advanced tab: Implementation, or jmeter.httpsampler)";
        }
        if (HTTPSamplerFactory.IMPL_HTTP_CLIENT4.equals(implementation) && !own(s).isEmpty()
                && NOTED.add(s.getName())) {
            LOG.info("HTTP Request '{}' names the HttpClient4 implementation; it runs on the Stampede engine, which "
                    + "stands in for it (run with --engine stock to keep HttpClient 4)", s.getName());
        }
        if (!s.getProxyHost().isEmpty() || SYSTEM_PROXY) {
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
        if (SLOW_CONNECTION) {
            return "slow connection simulation (httpclient.socket.*.cps)";
        }
        return null;
    }

    /** The implementation stock's HTTPSamplerProxy would use: the element's, else {@code jmeter.httpsampler}. */
    private static String implementation(HTTPSamplerBase s) {
        String own = own(s);
        return own.isEmpty() ? HTTPSamplerFactory.DEFAULT_CLASSNAME : own;
    }

    /** The Advanced tab's Implementation as stored in the plan, "" when not chosen. */
    private static String own(HTTPSamplerBase s) {
        String own = s.getImplementation();
        return own == null ? "" : own.trim();
    }

    /**
     * The sample on the implementation stock would use for this element (HttpClient 4 unless the plan or
     * {@code jmeter.httpsampler} names Java), after the one WARN naming the sampler and the feature.
     */
    HTTPSampleResult sample(URL url, String method, boolean areFollowingRedirect, int depth, String feature) {
        boolean java = feature.startsWith("the Java implementation");
        if (WARNED.add(element.getName() + '\n' + feature)) {
            LOG.warn("HTTP Request '{}': {} is not supported by the Stampede engine; this sampler runs on JMeter's "
                    + "{} implementation", element.getName(), feature, java ? "Java" : "HttpClient 4");
        }
        try {
            if (hc4 == null) {
                hc4 = HTTPSamplerFactory.getImplementation(java ? HTTPSamplerFactory.IMPL_JAVA
                        : HTTPSamplerFactory.IMPL_HTTP_CLIENT4, element);
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
        NOTED.clear();
    }
}
