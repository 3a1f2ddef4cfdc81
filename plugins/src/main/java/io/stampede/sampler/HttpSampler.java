/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sampler;

import io.stampede.engine.PreparedRequest;

import io.stampede.names.PluginNames;
import java.util.Locale;
import java.util.Objects;

/** An HTTP/1.1 request built from method, path, headers and body, on the same engine as the RAW sampler. */
public class HttpSampler extends StampedeSampler {
    private static final long serialVersionUID = 1L;

    /** How to turn TLS on for this sampler, in the message that h2 needs it (also `stampede run`'s check). */
    public static final String TLS_HINT = "set " + PluginNames.HTTP_SCHEME + " to https";

    private transient String[] lastInputs;

    @Override
    protected PreparedRequest request(Target t, boolean keepAlive) {
        String method = getMethod();
        String path = getPath();
        String headers = getPropertyAsString(PluginNames.HTTP_HEADERS);
        String body = getPropertyAsString(PluginNames.HTTP_BODY);
        PreparedRequest cached = prepared(t, keepAlive);
        String[] in = lastInputs;
        if (cached != null && in[0].equals(method) && in[1].equals(path) && in[2].equals(headers)
                && in[3].equals(body)) {
            return cached;
        }
        if (!method.chars().allMatch(c -> c > ' ' && c < 127)) {
            throw new IllegalArgumentException(PluginNames.HTTP_METHOD + ": '" + method + "' is not an HTTP method; use e.g. GET");
        }
        if (path.chars().anyMatch(c -> c <= ' ')) {
            throw new IllegalArgumentException(PluginNames.HTTP_PATH + ": '" + path + "' contains spaces or control characters; "
                    + "encode them (%20)");
        }
        String target = path.startsWith("/") || path.startsWith("http://") ? path : "/" + path;
        String text = HttpRequestText.build(method, t.host(), t.port(), t.secure() ? 443 : 80, target, headers, body,
                keepAlive);
        PreparedRequest next = PreparedRequest.of(text, method, target, t.host(), t.port(), t.secure());
        replacePrepared(next, t, keepAlive);
        lastInputs = new String[] {method, path, headers, body};
        return next;
    }

    @Override
    protected void forgetInputs() {
        lastInputs = null;
    }

    /** The inputs of the request kept for the next sample, for tests of what a pooled user holds. */
    String[] lastInputs() {
        return lastInputs;
    }

    @Override
    protected String requestField() {
        return PluginNames.HTTP_HEADERS;
    }

    @Override
    protected String tlsHint() {
        return TLS_HINT;
    }

    /** https sends over TLS; anything but http or https is refused by name. */
    @Override
    protected boolean tlsRequested() {
        String s = getPropertyAsString(PluginNames.HTTP_SCHEME).trim().toLowerCase(Locale.ROOT);
        if (s.isEmpty() || s.equals("http")) {
            return false;
        }
        if (s.equals("https")) {
            return true;
        }
        throw new IllegalArgumentException(PluginNames.HTTP_SCHEME + ": '" + s + "' is not supported; use http or https");
    }

    public void setScheme(String scheme) {
        setProperty(PluginNames.HTTP_SCHEME, scheme);
    }

    public String getMethod() {
        String m = getPropertyAsString(PluginNames.HTTP_METHOD).trim();
        return m.isEmpty() ? "GET" : m.toUpperCase(Locale.ROOT);
    }

    public void setMethod(String method) {
        setProperty(PluginNames.HTTP_METHOD, method);
    }

    public String getPath() {
        String p = getPropertyAsString(PluginNames.HTTP_PATH).trim();
        return p.isEmpty() ? "/" : p;
    }

    public void setPath(String path) {
        setProperty(PluginNames.HTTP_PATH, path);
    }

    public void setHeaders(String headers) {
        setProperty(PluginNames.HTTP_HEADERS, headers);
    }

    public void setBody(String body) {
        setProperty(PluginNames.HTTP_BODY, Objects.requireNonNull(body));
    }
}
