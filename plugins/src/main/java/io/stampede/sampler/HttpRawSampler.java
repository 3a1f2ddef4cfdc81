/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sampler;

import io.stampede.engine.PreparedRequest;
import io.stampede.names.PluginNames;

/**
 * Sends the request text exactly as written (after JMeter's variable and function substitution, and CRLF line
 * endings unless turned off) and frames the HTTP/1.1 response properly, so keep-alive works.
 */
public class HttpRawSampler extends StampedeSampler {
    private static final long serialVersionUID = 1L;

    /** How to turn TLS on for this sampler, in the message that h2 needs it (also `stampede run`'s check). */
    public static final String TLS_HINT = "tick TLS (" + PluginNames.RAW_TLS + ")";

    private transient String lastText;
    private transient boolean lastCrlf;

    @Override
    protected PreparedRequest request(Target target, boolean keepAlive) {
        String text = getRequestText();
        boolean crlf = getCrlf();
        PreparedRequest cached = prepared(target, keepAlive);
        if (cached != null && crlf == lastCrlf && text.equals(lastText)) {
            return cached;
        }
        if (text.isBlank()) {
            throw new IllegalArgumentException(PluginNames.RAW_REQUEST + " is empty; enter a request such as "
                    + "'GET / HTTP/1.1' followed by a 'Host: ...' line");
        }
        String wire = crlf ? RawRequestText.normalise(text) : text;
        if (!keepAlive) {
            wire = RawRequestText.withConnectionClose(wire);
        }
        String[] line = RawRequestText.requestLine(wire);
        PreparedRequest next = PreparedRequest.of(wire, line[0], line[1], target.host(), target.port(),
                target.secure());
        replacePrepared(next, target, keepAlive);
        lastText = text;
        lastCrlf = crlf;
        return next;
    }

    @Override
    protected String requestField() {
        return PluginNames.RAW_REQUEST;
    }

    @Override
    protected String tlsHint() {
        return TLS_HINT;
    }

    @Override
    protected boolean tlsRequested() {
        return getPropertyAsBoolean(PluginNames.RAW_TLS, false);
    }

    public String getRequestText() {
        return getPropertyAsString(PluginNames.RAW_REQUEST);
    }

    public void setRequestText(String text) {
        setProperty(PluginNames.RAW_REQUEST, text);
    }

    public boolean getCrlf() {
        return getPropertyAsBoolean(PluginNames.RAW_CRLF, true);
    }

    public void setCrlf(boolean crlf) {
        setProperty(PluginNames.RAW_CRLF, crlf);
    }
}
