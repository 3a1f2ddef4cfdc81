/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.httprequest;

import io.stampede.engine.http2.Http2Options;
import io.stampede.engine.http2.Http2Request;
import io.stampede.engine.HttpProtocol;
import io.stampede.engine.tls.Tls;
import io.stampede.sampler.BodyLimits;
import io.stampede.sampler.Target;
import org.apache.jmeter.protocol.http.control.CacheManager;
import org.apache.jmeter.protocol.http.control.CookieManager;
import org.apache.jmeter.protocol.http.sampler.HTTPSampleResult;
import org.apache.jmeter.protocol.http.util.HTTPConstants;
import org.apache.jmeter.samplers.SampleResult;

import java.io.IOException;
import java.net.InetAddress;
import java.net.URL;

/**
 * One sample of an {@link EngineHttpRequest} on the engine, step for step as stock's HttpClient 4 sampler takes it:
 * the request's own header fields (Connection, Header Manager, Cache Manager, Cookie Manager), the cache check, the
 * body, the exchange on this thread's connection, a 401 answered once with the Authorization Manager's credentials,
 * automatic redirects when "Redirect automatically" is set, then the result, the cookies and cache details saved,
 * and JMeter's own follow-redirects / embedded-resources processing.
 */
final class EngineSample {
    private final EngineHttpRequest element;
    private final EngineLink link;
    /** The managers, each looked up once per sample: every lookup is a property read under the element's lock. */
    private final CookieManager cookieManager;
    private final CacheManager cache;
    private HttpProtocol protocol = HttpProtocol.HTTP_1_1;
    private Http2Options http2Options = Http2Options.DEFAULTS;
    private BodyLimits limits;
    /** The most body bytes a hop's connection keeps: {@link BodyLimits#rawKept}. */
    private int keep;
    /** When the sample started (System.nanoTime()), 0 before. */
    private long startNanos;
    /** The last hop's request as HTTP/2 sent it, for the result's request headers; null on HTTP/1.1. */
    private Http2Request sentHttp2;

    EngineSample(EngineHttpRequest element, EngineLink link) {
        this.element = element;
        this.link = link;
        this.cookieManager = element.getCookieManager();
        this.cache = element.getCacheManager();
    }

    HTTPSampleResult run(URL url, String method, boolean areFollowingRedirect, int depth) {
        HTTPSampleResult res = new HTTPSampleResult();
        res.setSampleLabel(SampleResult.isRenameSampleLabel() ? element.getName() : url.toString());
        res.setHTTPMethod(method);
        res.setURL(url);
        HeaderFields own;
        String firstTarget;
        try {
            firstTarget = link.targets().of(url); // an invalid URI fails here, before the sample starts, as in stock
            protocol = element.protocol();
            limits = element.bodyLimits();
            keep = limits.rawKept(element.useMD5());
            if (protocol.http2()) {
                http2Options = element.http2Options();
            }
            own = RequestFields.of(element, cache, cookieManager, url);
        } catch (Exception e) {
            res.sampleStart();
            res.sampleEnd();
            noteProtocol("");
            return element.errorResultOf(e, res);
        }
        String cookies = own.first(HTTPConstants.HEADER_COOKIE);
        res.setCookies(cookies == null ? "" : cookies);

        res.sampleStart();
        startNanos = System.nanoTime();
        if (cache != null && HTTPConstants.GET.equalsIgnoreCase(method) && cache.inCache(url, RequestFields.stockHeaders(own))) {
            return CachedResults.inCache(res);
        }
        OutgoingRequest req = null;
        try {
            RequestBody body = RedirectRules.carriesBody(element, method, areFollowingRedirect) ? RequestBody.of(element, own) : null;
            if (body != null) {
                res.setQueryString(body.shown());
            }
            URL hopUrl = url;
            String hopMethod = method;
            EngineResponse r;
            for (int redirects = 0; ; redirects++) {
                req = OutgoingRequest.of(hopMethod, hopUrl, hopUrl == url ? firstTarget : link.targets().of(hopUrl),
                        own, body, Authentication.preemptive(element.getAuthManager(), hopUrl, hopMethod, target(hopUrl)));
                r = send(req);
                if (r.head().status() == 401) {
                    String answer = Authentication.answer(element.getAuthManager(), hopUrl, hopMethod, req.target(),
                            r.head().all("WWW-Authenticate"), req.headers().contains("Authorization"));
                    if (answer != null) {
                        req = OutgoingRequest.of(hopMethod, hopUrl, req.target(), own, body, answer);
                        r = send(req);
                    }
                }
                String location = r.head().last(HTTPConstants.HEADER_LOCATION);
                if (!element.getAutoRedirects() || location == null || !RedirectRules.followed(r.head().status(), hopMethod)) {
                    break;
                }
                RedirectRules.checkCount(redirects);
                hopUrl = new URL(hopUrl, location);
                if (!RedirectRules.keepsMethod(r.head().status(), hopMethod)) {
                    hopMethod = HTTPConstants.GET;
                    body = null;
                }
            }
            HttpResultFiller.fill(element, limits, res, req, requestHeaders(req), r, startNanos);
            noteProtocol(r.protocol());
            if (res.isRedirect()) {
                String location = r.head().last(HTTPConstants.HEADER_LOCATION);
                if (location == null) {
                    throw new IllegalArgumentException("Missing location header in redirect for "
                            + req.method() + ' ' + req.target() + " HTTP/1.1");
                }
                res.setRedirectLocation(location);
            }
            if (cookieManager != null) {
                for (String setCookie : r.head().all(HTTPConstants.HEADER_SET_COOKIE)) {
                    cookieManager.addCookieFromHeader(setCookie, res.getURL());
                }
            }
            if (cache != null) {
                cache.saveDetails(CachedResults.stockResponse(r.head()), res);
            }
            return element.processResult(areFollowingRedirect, depth, res);
        } catch (IOException e) {
            if (res.getEndTime() == 0) {
                res.sampleEnd();
            }
            if (req != null) {
                res.setRequestHeaders(requestHeaders(req));
            }
            noteProtocol("");
            return element.errorResultOf(e, res);
        } catch (Exception e) {
            if (res.getEndTime() == 0) {
                res.sampleEnd();
            }
            noteProtocol("");
            return element.errorResultOf(e, res);
        }
    }

    private static String target(URL url) {
        String file = url.getFile();
        return file.isEmpty() ? "/" : file;
    }

    private EngineResponse send(OutgoingRequest req) throws IOException {
        URL u = req.url();
        boolean tls = HTTPConstants.PROTOCOL_HTTPS.equalsIgnoreCase(u.getProtocol());
        int port = u.getPort() == -1 ? u.getDefaultPort() : u.getPort();
        InetAddress address = ConnectAddresses.remote(element, u.getHost());
        Target target = new Target(u.getHost(), port, tls ? new Tls(u.getHost(), port, true) : null,
                ConnectAddresses.source(element));
        try {
            if (protocol.http2()) {
                Http2Request h2 = Http2Requests.of(element.getName(), protocol, req, tls, u.getHost(), u);
                sentHttp2 = h2;
                return link.exchange(target, address, h2, http2Options, req.keepAlive(), keep,
                        element.getConnectTimeout(), element.getResponseTimeout());
            }
            return link.exchange(target, address, req.encode(), req.head(), req.keepAlive(), keep,
                    element.getConnectTimeout(), element.getResponseTimeout());
        } catch (IOException e) {
            throw StockFailures.of(e, u.getHost(), address, port, tls);
        }
    }

    /** The request headers as sent: HTTP/2's fields (pseudo-headers first) or HTTP/1.1's; Cookie has its own field. */
    private String requestHeaders(OutgoingRequest req) {
        return sentHttp2 != null ? sentHttp2.headerText("cookie") : req.headers().text(false);
    }

    /** Sets the stampede_* variables sample_variables names, as the Stampede samplers do. */
    private void noteProtocol(String spoke) {
        long elapsed = startNanos == 0 ? 0 : System.nanoTime() - startNanos;
        link.variables().put(elapsed, elapsed, spoke);
    }
}
