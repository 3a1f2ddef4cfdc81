/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.httprequest;

import io.stampede.engine.Http2Options;
import io.stampede.engine.Http2Request;
import io.stampede.engine.HttpProtocol;
import io.stampede.engine.PreparedRequest;
import io.stampede.engine.Tls;
import io.stampede.sampler.ResultFiller;
import io.stampede.sampler.StampedeVariables;
import io.stampede.sampler.Target;
import org.apache.http.Header;
import org.apache.http.HttpVersion;
import org.apache.http.client.ClientProtocolException;
import org.apache.http.client.RedirectException;
import org.apache.http.client.methods.HttpGet;
import org.apache.http.message.BasicHeader;
import org.apache.http.message.BasicHttpResponse;
import org.apache.jmeter.protocol.http.control.CacheManager;
import org.apache.jmeter.protocol.http.control.CookieManager;
import org.apache.jmeter.protocol.http.control.HeaderManager;
import org.apache.jmeter.protocol.http.sampler.HTTPSampleResult;
import org.apache.jmeter.protocol.http.sampler.HTTPSamplerBase;
import org.apache.jmeter.protocol.http.util.HTTPConstants;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testelement.property.JMeterProperty;
import org.apache.jmeter.util.JMeterUtils;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InterfaceAddress;
import java.net.NetworkInterface;
import java.net.UnknownHostException;
import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One sample of an {@link EngineHttpRequest} on the engine, step for step as stock's HttpClient 4 sampler takes it:
 * the request's own header fields (Connection, Header Manager, Cache Manager, Cookie Manager), the cache check, the
 * body, the exchange on this thread's connection, a 401 answered once with the Authorization Manager's credentials,
 * automatic redirects when "Redirect automatically" is set, then the result, the cookies and cache details saved,
 * and JMeter's own follow-redirects / embedded-resources processing.
 */
final class EngineSample {
    private static final int MAX_REDIRECTS = JMeterUtils.getPropDefault("httpsampler.max_redirects", 20);
    private static final String CACHED_MODE = JMeterUtils.getPropDefault("cache_manager.cached_resource_mode",
            "RETURN_NO_SAMPLE");
    private static final Pattern PORT = Pattern.compile("\\d+");
    private static final String LOCAL_ADDRESS = JMeterUtils.getPropDefault("httpclient.localaddress", "").trim();
    /** The methods stock's redirect strategy (HttpClient 4's LaxRedirectStrategy) follows. */
    private static final Set<String> REDIRECTABLE = Set.of(HTTPConstants.GET, HTTPConstants.POST,
            HTTPConstants.HEAD, HTTPConstants.DELETE);

    /**
     * The JMeter variable naming the protocol a sample spoke (http/1.1, h2, h2c, "http/1.1 (ALPN fallback)"; empty
     * when it failed), as the Stampede samplers set it: only when {@code sample_variables} names it.
     */
    static final String PROTOCOL_VARIABLE = StampedeVariables.PROTOCOL;

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
            own = ownHeaders(url);
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
        if (cache != null && HTTPConstants.GET.equalsIgnoreCase(method) && cache.inCache(url, stockHeaders(own))) {
            return inCache(res);
        }
        OutgoingRequest req = null;
        try {
            RequestBody body = carriesBody(method, areFollowingRedirect) ? RequestBody.of(element, own) : null;
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
                if (!element.getAutoRedirects() || location == null || !redirected(r.head().status(), hopMethod)) {
                    break;
                }
                if (redirects + 1 > MAX_REDIRECTS) {
                    throw new ClientProtocolException(new RedirectException("Maximum redirects ("
                            + MAX_REDIRECTS + ") exceeded"));
                }
                hopUrl = new URL(hopUrl, location);
                int status = r.head().status();
                if (!hopMethod.equals(HTTPConstants.HEAD) && !((status == 307 || status == 308)
                        && !hopMethod.equals(HTTPConstants.GET))) {
                    hopMethod = HTTPConstants.GET;
                    body = null;
                }
            }
            fill(res, req, r, startNanos);
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
                cache.saveDetails(stockResponse(r.head()), res);
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

    /** HttpClient 4 gives GET a body only for "Body Data" or a file as body, and never when following a redirect. */
    private boolean carriesBody(String method, boolean areFollowingRedirect) {
        return switch (method) {
            case HTTPConstants.POST, HTTPConstants.PUT, HTTPConstants.PATCH, HTTPConstants.DELETE -> true;
            case HTTPConstants.GET -> !areFollowingRedirect && ((!element.hasArguments()
                    && element.getSendFileAsPostBody()) || element.getSendParameterValuesAsPostBody());
            default -> false;
        };
    }

    private static boolean redirected(int status, String method) {
        return switch (status) {
            case 301, 302, 307, 308 -> REDIRECTABLE.contains(method);
            case 303 -> true;
            default -> false;
        };
    }

    private EngineResponse send(OutgoingRequest req) throws IOException {
        URL u = req.url();
        boolean tls = HTTPConstants.PROTOCOL_HTTPS.equalsIgnoreCase(u.getProtocol());
        int port = u.getPort() == -1 ? u.getDefaultPort() : u.getPort();
        InetAddress address = resolve(u.getHost());
        Target target = new Target(u.getHost(), port, tls ? new Tls(u.getHost(), port, true) : null, sourceAddress());
        if (protocol.http2()) {
            return sendHttp2(req, target, address, u);
        }
        try {
            return link.exchange(target, address, req.encode(), req.head(), req.keepAlive(), keep, element.getConnectTimeout(),
                    element.getResponseTimeout());
        } catch (IOException e) {
            throw StockFailures.of(e, u.getHost(), address, port, tls);
        }
    }

    /**
     * One hop as an HTTP/2 stream: the request HttpClient 4's rules built, its fields lower-cased with the
     * connection-specific ones left out (Connection among them), the body as it is. h2 needs an https URL and h2c an
     * http one; the other way round fails at once, naming the fix, rather than waiting for a server that cannot
     * answer.
     */
    private EngineResponse sendHttp2(OutgoingRequest req, Target target, InetAddress address, URL u)
            throws IOException {
        if (protocol == HttpProtocol.H2 && !target.secure()) {
            throw new IllegalArgumentException(EngineHttpRequest.PROTOCOL + " h2 is HTTP/2 over TLS, but " + u
                    + " is cleartext; use an https URL for h2, or h2c for HTTP/2 over cleartext (prior knowledge)");
        }
        if (protocol == HttpProtocol.H2C && target.secure()) {
            throw new IllegalArgumentException(EngineHttpRequest.PROTOCOL + " h2c is HTTP/2 over cleartext, but " + u
                    + " is TLS; use h2 for HTTP/2 over TLS (ALPN), or an http URL for h2c");
        }
        HeaderFields h = req.headers();
        List<String> names = new ArrayList<>(h.size());
        List<String> values = new ArrayList<>(h.size());
        for (int i = 0; i < h.size(); i++) {
            names.add(h.name(i));
            values.add(h.value(i));
        }
        PreparedRequest http1 = PreparedRequest.ofBytes(req.encode(), req.head(), null);
        Http2Request h2;
        try {
            h2 = Http2Request.of(http1, "HTTP Request '" + element.getName() + "' header fields", req.method(),
                    target.secure(), req.target(), target.host(), names, values,
                    req.body() == null ? new byte[0] : req.body().bytes());
        } catch (RuntimeException e) {
            http1.release();
            throw e;
        }
        sentHttp2 = h2;
        try {
            return link.exchange(target, address, h2, http2Options, req.keepAlive(), keep, element.getConnectTimeout(),
                    element.getResponseTimeout());
        } catch (IOException e) {
            throw StockFailures.of(e, u.getHost(), address, target.port(), target.secure());
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

    /**
     * The "IP source address" field, read as stock reads it: a host name or IP, or a device's first address of the
     * chosen family; else JMeter's {@code httpclient.localaddress}; null lets the kernel choose.
     */
    private InetAddress sourceAddress() throws IOException {
        String source = element.getIpSource().trim();
        if (source.isEmpty()) {
            return LOCAL_ADDRESS.isEmpty() ? null : InetAddress.getByName(LOCAL_ADDRESS);
        }
        HTTPSamplerBase.SourceType type = HTTPSamplerBase.SourceType.values()[element.getIpSourceType()];
        if (type == HTTPSamplerBase.SourceType.HOSTNAME) {
            return InetAddress.getByName(source);
        }
        Class<? extends InetAddress> family = switch (type) {
            case DEVICE_IPV4 -> Inet4Address.class;
            case DEVICE_IPV6 -> Inet6Address.class;
            default -> InetAddress.class;
        };
        NetworkInterface device = NetworkInterface.getByName(source);
        if (device == null) {
            throw new UnknownHostException("Cannot find interface " + source);
        }
        for (InterfaceAddress a : device.getInterfaceAddresses()) {
            if (family.isInstance(a.getAddress())) {
                return a.getAddress();
            }
        }
        throw new UnknownHostException("Interface " + source + " does not have address of type "
                + family.getSimpleName());
    }

    /** The DNS Cache Manager's answer when the plan has one, else the system's; the first address is used. */
    private InetAddress resolve(String host) throws IOException {
        String h = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        if (element.getDNSResolver() != null) {
            return element.getDNSResolver().resolve(h)[0];
        }
        return InetAddress.getAllByName(h)[0];
    }

    /**
     * Connection, the Header Manager's fields (Content-Length never; a Host with the URL's default port written
     * without it), the Cache Manager's conditional fields and the Cookie Manager's Cookie, in stock's order.
     */
    private HeaderFields ownHeaders(URL url) throws Exception {
        HeaderFields h = new HeaderFields();
        h.set(HTTPConstants.HEADER_CONNECTION, element.getUseKeepAlive() ? HTTPConstants.KEEP_ALIVE
                : HTTPConstants.CONNECTION_CLOSE);
        HeaderManager headers = element.getHeaderManager();
        if (headers != null && headers.getHeaders() != null) {
            for (JMeterProperty p : headers.getHeaders()) {
                org.apache.jmeter.protocol.http.control.Header field =
                        (org.apache.jmeter.protocol.http.control.Header) p.getObjectValue();
                String name = field.getName();
                if (HTTPConstants.HEADER_CONTENT_LENGTH.equalsIgnoreCase(name)) {
                    continue;
                }
                String value = field.getValue();
                if (HTTPConstants.HEADER_HOST.equalsIgnoreCase(name)) {
                    value = hostField(value, url);
                }
                h.add(name, value);
            }
        }
        if (cache != null) {
            // The Cache Manager writes into an HttpClient 4 request; it reads only URL and method from it.
            HttpGet carrier = new HttpGet(url.toURI());
            for (int i = 0; i < h.size(); i++) {
                carrier.addHeader(h.name(i), h.value(i));
            }
            int before = h.size();
            cache.setHeaders(url, carrier);
            Header[] all = carrier.getAllHeaders();
            for (int i = before; i < all.length; i++) {
                h.add(all[i].getName(), all[i].getValue());
            }
        }
        if (cookieManager != null) {
            String cookie = cookieManager.getCookieHeaderForURL(url);
            if (cookie != null) {
                h.set(HTTPConstants.HEADER_COOKIE, cookie);
            }
        }
        return h;
    }

    private static String hostField(String value, URL url) {
        String[] parts = value.split(":");
        int port = url.getPort();
        if (parts.length > 1 && PORT.matcher(parts[parts.length - 1]).matches()) {
            port = Integer.parseInt(parts[parts.length - 1]);
        }
        String host = value.replaceFirst(":\\d+$", "");
        if (port != -1 && port == url.getDefaultPort()) {
            port = -1;
        }
        return port == -1 ? host : host + ':' + port;
    }

    private static Header[] stockHeaders(HeaderFields h) {
        Header[] out = new Header[h.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = new BasicHeader(h.name(i), h.value(i));
        }
        return out;
    }

    private static BasicHttpResponse stockResponse(ResponseHead head) {
        BasicHttpResponse r = new BasicHttpResponse(HttpVersion.HTTP_1_1, head.status(), head.reason());
        HeaderFields fields = head.fields();
        for (int i = 0; i < fields.size(); i++) {
            r.addHeader(fields.name(i), fields.value(i));
        }
        return r;
    }

    /** A GET the Cache Manager says is fresh: no request, reported as cache_manager.cached_resource_mode says. */
    private static HTTPSampleResult inCache(HTTPSampleResult res) {
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

    /**
     * Fills the result as stock does after its exchange: request headers as sent (Cookie left out, it has its own
     * field), Content-Type and data encoding, the decoded body (or its MD5), end time, code, message, success,
     * response headers, sizes, and the URL finally reached. Connect and Latency are the engine's measurements from
     * the sample's start: Connect when this sample opened a connection (at least 1 ms then), Latency at the first
     * response byte.
     */
    private void fill(HTTPSampleResult res, OutgoingRequest req, EngineResponse r, long startNanos)
            throws IOException {
        ResponseHead head = r.head();
        res.setRequestHeaders(requestHeaders(req));
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
        res.setLatency(Math.max(0, (r.firstByteNanos() - startNanos) / 1_000_000L));
        res.setResponseCode(Integer.toString(status));
        res.setResponseMessage(head.reason());
        res.setSuccessful(element.successCode(status));
        res.setResponseHeaders(head.text());
        res.setHeadersSize((int) Math.min(Integer.MAX_VALUE, r.headerBytes()));
        res.setBodySize(r.bodyBytes());
        res.setSentBytes(r.sentBytes() >= 0 ? r.sentBytes() : req.encode().length);
        res.setURL(req.url());
        noteProtocol(r.protocol());
        if (tooLarge != null) {
            throw tooLarge;
        }
    }
}
