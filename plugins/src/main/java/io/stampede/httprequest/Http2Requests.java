/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.httprequest;

import io.stampede.names.PluginNames;
import io.stampede.engine.http2.Http2Request;
import io.stampede.engine.HttpProtocol;
import io.stampede.engine.PreparedRequest;

import java.net.URL;
import java.util.ArrayList;
import java.util.List;

/**
 * A hop's request as one HTTP/2 stream: the request HttpClient 4's rules built, its fields lower-cased with the
 * connection-specific ones left out (Connection among them), the body as it is.
 */
final class Http2Requests {
    private Http2Requests() {
    }

    /**
     * h2 needs an https URL and h2c an http one; the other way round fails at once, naming the fix, rather than
     * waiting for a server that cannot answer.
     *
     * @throws IllegalArgumentException naming the setting and the fix
     */
    static Http2Request of(String samplerName, HttpProtocol protocol, OutgoingRequest req, boolean tls, String host,
                           URL u) {
        if (protocol == HttpProtocol.H2 && !tls) {
            throw new IllegalArgumentException(PluginNames.PROTOCOL + " h2 is HTTP/2 over TLS, but " + u
                    + " is cleartext; use an https URL for h2, or h2c for HTTP/2 over cleartext (prior knowledge)");
        }
        if (protocol == HttpProtocol.H2C && tls) {
            throw new IllegalArgumentException(PluginNames.PROTOCOL + " h2c is HTTP/2 over cleartext, but " + u
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
        try {
            return Http2Request.of(http1, "HTTP Request '" + samplerName + "' header fields", req.method(), tls,
                    req.target(), host, names, values, req.body() == null ? new byte[0] : req.body().bytes());
        } catch (RuntimeException e) {
            http1.release();
            throw e;
        }
    }
}
