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

/**
 * The route to stock's own implementations (HttpClient 4, Java, file) for the samples the engine does not serve, so
 * that such a sample behaves exactly as in stock JMeter: it runs on stock's implementation, bound to the same element
 * (same properties and managers). A feature the engine lacks gets one WARN per sampler and feature in jmeter.log,
 * once per test run ({@link RouteNotes}). Never a silent change of behaviour.
 *
 * <p>The features: a proxy server (the sampler's or JMeter's -H/-P), Kerberos and NTLM (a domain) in the
 * Authorization Manager, a client certificate (Keystore Configuration or
 * {@code javax.net.ssl.keyStore}) for https, the slow-connection simulation ({@code httpclient.socket.*.cps}),
 * and WebDAV methods. A plan naming HttpClient4 explicitly runs on the engine (the engine stands in for HttpClient 4,
 * and the parity suite holds it to that), with one INFO per sampler name.
 *
 * <p>Two kinds of request are not the engine's to serve at all, and run on the implementation stock's
 * HTTPSamplerProxy picks, without a WARN ({@link #servedByStock}): a URL whose scheme is not http or https (a "file"
 * protocol goes to stock's file implementation), and a sampler that chose the Java implementation (one INFO per
 * sampler and run).
 */
final class StockImplementations {
    private static final Logger LOG = LoggerFactory.getLogger(StockImplementations.class);
    private static final Method SAMPLE;
    private static final Method THREAD_FINISHED;
    private static final Method LOOP_RESTART;
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
    private final RouteNotes notes;
    private HTTPAbstractImpl stock;

    /** @param notes what the element said in this test run, shared by its clones */
    StockImplementations(HTTPSamplerBase element, RouteNotes notes) {
        this.element = element;
        this.notes = notes;
    }

    /**
     * Whether this request is stock's to serve, as stock would serve it, rather than the engine's: its scheme is not
     * http or https (saved pages read through {@code file:}, their embedded resources included), or the sampler
     * chose the Java implementation (Advanced tab, or {@code jmeter.httpsampler}), which a plan asks for on purpose:
     * one INFO per sampler and run says so, never a WARN.
     */
    static boolean servedByStock(HTTPSamplerBase s, URL url, RouteNotes notes) {
        String scheme = url.getProtocol();
        if (!HTTPConstants.PROTOCOL_HTTP.equalsIgnoreCase(scheme)
                && !HTTPConstants.PROTOCOL_HTTPS.equalsIgnoreCase(scheme)) {
            return true;
        }
        if (!java(s)) {
            return false;
        }
        if (notes.firstJava()) {
            LOG.info("HTTP Request '{}' chose JMeter's Java implementation (Advanced tab, or jmeter.httpsampler): it "
                    + "runs on that implementation, as in stock JMeter", s.getName());
        }
        return true;
    }

    /** The feature of this request the engine does not support, in the words of docs/http-request.md's table, or null. */
    @SuppressWarnings("deprecation") // KERBEROS is no longer offered in the GUI but old plans carry it
    static String unsupportedFeature(HTTPSamplerBase s, URL url, String method, RouteNotes notes) {
        if (HTTPSamplerFactory.IMPL_HTTP_CLIENT4.equals(own(s)) && notes.firstHttpClient4()) {
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

    /** Whether stock's HTTPSamplerProxy would use its Java implementation: the element's choice, else the default. */
    private static boolean java(HTTPSamplerBase s) {
        String own = own(s);
        String implementation = own.isEmpty() ? HTTPSamplerFactory.DEFAULT_CLASSNAME : own;
        return HTTPSamplerFactory.IMPL_JAVA.equals(implementation)
                || HTTPSamplerFactory.HTTP_SAMPLER_JAVA.equals(implementation);
    }

    /** The Advanced tab's Implementation as stored in the plan, "" when not chosen. */
    private static String own(HTTPSamplerBase s) {
        String own = s.getImplementation();
        return own == null ? "" : own.trim();
    }

    /**
     * The sample on the implementation stock would use for this element (its file implementation for the "file"
     * protocol, else HttpClient 4 unless the plan or {@code jmeter.httpsampler} names Java), after the one WARN naming
     * the sampler and the feature the engine lacks.
     *
     * @param feature null: the request is stock's to serve ({@link #servedByStock}), nothing to warn about
     */
    HTTPSampleResult sample(URL url, String method, boolean areFollowingRedirect, int depth, String feature) {
        if (feature != null && notes.firstWarning(feature)) {
            LOG.warn("HTTP Request '{}': {} is not supported by the Stampede engine; this sampler runs on JMeter's "
                    + "HttpClient 4 implementation", element.getName(), feature);
        }
        try {
            if (stock == null) {
                stock = HTTPSamplerFactory.getImplementation(java(element) ? HTTPSamplerFactory.IMPL_JAVA
                        : HTTPSamplerFactory.IMPL_HTTP_CLIENT4, element);
            }
            return (HTTPSampleResult) SAMPLE.invoke(stock, url, method, areFollowingRedirect, depth);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException("JMeter's own HTTP implementation failed", e.getCause());
        } catch (Exception e) {
            throw new IllegalStateException("cannot run JMeter's own HTTP implementation", e);
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
        return stock != null && stock.interrupt();
    }

    private void call(Method m) {
        if (stock != null) {
            try {
                m.invoke(stock);
            } catch (ReflectiveOperationException e) {
                LOG.warn("JMeter's own HTTP implementation failed in {}", m.getName(), e);
            }
        }
    }
}
