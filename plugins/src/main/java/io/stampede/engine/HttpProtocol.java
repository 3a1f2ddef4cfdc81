/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine;

import java.util.Locale;

/**
 * The protocol a sampler speaks: HTTP/1.1 (the default), HTTP/2 over TLS negotiated with ALPN ({@code h2}, falling
 * back to HTTP/1.1 when the server does not offer h2), or HTTP/2 over cleartext by prior knowledge ({@code h2c}).
 * The names are ALPN's protocol ids, as curl and h2load use them.
 */
public enum HttpProtocol {
    HTTP_1_1("http/1.1"),
    H2("h2"),
    H2C("h2c");


    private final String id;

    HttpProtocol(String id) {
        this.id = id;
    }

    public String id() {
        return id;
    }

    public boolean http2() {
        return this != HTTP_1_1;
    }

    /**
     * Reads a protocol setting; empty means http/1.1.
     *
     * @param field the property name, named in the error
     * @throws IllegalArgumentException naming the field and the accepted values
     */
    public static HttpProtocol parse(String field, String value) {
        String v = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
        if (v.isEmpty()) {
            return HTTP_1_1;
        }
        for (HttpProtocol p : values()) {
            if (p.id.equals(v)) {
                return p;
            }
        }
        if (v.equals("http/2") || v.equals("http2") || v.equals("h2c-upgrade")) {
            throw new IllegalArgumentException(field + ": '" + value.trim() + "' is not a protocol here; enter h2 "
                    + "(HTTP/2 over TLS) or h2c (HTTP/2 over cleartext, prior knowledge)");
        }
        throw new IllegalArgumentException(field + ": '" + value.trim() + "' is not a protocol; enter http/1.1, h2 "
                + "(HTTP/2 over TLS with ALPN) or h2c (HTTP/2 over cleartext), or leave it empty for http/1.1");
    }
}
