/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.httprequest;

import org.apache.http.Header;
import org.apache.http.client.methods.HttpGet;
import org.apache.http.message.BasicHeader;
import org.apache.jmeter.protocol.http.control.CacheManager;
import org.apache.jmeter.protocol.http.control.CookieManager;
import org.apache.jmeter.protocol.http.control.HeaderManager;
import org.apache.jmeter.protocol.http.util.HTTPConstants;
import org.apache.jmeter.testelement.property.JMeterProperty;

import java.net.URL;
import java.util.regex.Pattern;

/**
 * The header fields a sample's requests carry before the body's and the engine's own: Connection, the Header
 * Manager's fields (Content-Length never; a Host with the URL's default port written without it), the Cache
 * Manager's conditional fields and the Cookie Manager's Cookie, in stock's order.
 */
final class RequestFields {
    private static final Pattern PORT = Pattern.compile("\\d+");

    private RequestFields() {
    }

    static HeaderFields of(EngineHttpRequest element, CacheManager cache, CookieManager cookies, URL url)
            throws Exception {
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
        if (cookies != null) {
            String cookie = cookies.getCookieHeaderForURL(url);
            if (cookie != null) {
                h.set(HTTPConstants.HEADER_COOKIE, cookie);
            }
        }
        return h;
    }

    /** The fields as HttpClient 4 headers, for the Cache Manager's freshness check. */
    static Header[] stockHeaders(HeaderFields h) {
        Header[] out = new Header[h.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = new BasicHeader(h.name(i), h.value(i));
        }
        return out;
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
}
