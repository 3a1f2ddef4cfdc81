/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in compliance with
 * the License. You may obtain a copy of the License at http://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sampler;

import io.stampede.engine.PreparedRequest;

/**
 * Sends the request text exactly as written (after JMeter's variable and function substitution, and CRLF line
 * endings unless turned off) and frames the HTTP/1.1 response properly, so keep-alive works.
 */
public class HttpRawSampler extends StampedeSampler {
    private static final long serialVersionUID = 1L;

    public static final String REQUEST = "stampede.raw.request";
    public static final String CRLF = "stampede.raw.crlf";

    private transient String lastText;
    private transient boolean lastCrlf;
    private transient boolean lastKeepAlive;
    private transient String lastHost;
    private transient int lastPort;

    @Override
    protected PreparedRequest request(String host, int port, boolean keepAlive) {
        String text = getRequestText();
        boolean crlf = getCrlf();
        if (prepared() != null && text.equals(lastText) && crlf == lastCrlf && keepAlive == lastKeepAlive
                && port == lastPort && host.equals(lastHost)) {
            return prepared();
        }
        if (text.isBlank()) {
            throw new IllegalArgumentException(REQUEST + " is empty; enter a request such as "
                    + "'GET / HTTP/1.1' followed by a 'Host: ...' line");
        }
        String wire = crlf ? RawRequestText.normalise(text) : text;
        if (!keepAlive) {
            wire = RawRequestText.withConnectionClose(wire);
        }
        String[] line = RawRequestText.requestLine(wire);
        PreparedRequest next = PreparedRequest.of(wire, line[0], line[1], host, port);
        replacePrepared(next);
        lastText = text;
        lastCrlf = crlf;
        lastKeepAlive = keepAlive;
        lastHost = host;
        lastPort = port;
        return next;
    }


    public String getRequestText() {
        return getPropertyAsString(REQUEST);
    }

    public void setRequestText(String text) {
        setProperty(REQUEST, text);
    }

    public boolean getCrlf() {
        return getPropertyAsBoolean(CRLF, true);
    }

    public void setCrlf(boolean crlf) {
        setProperty(CRLF, crlf);
    }
}
