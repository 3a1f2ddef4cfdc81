/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.websocket;

import io.stampede.engine.websocket.WebSocketCall;
import io.stampede.sessions.UserSessions;
import org.apache.jmeter.protocol.http.control.CookieManager;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testelement.TestElement;
import org.apache.jmeter.testelement.property.JMeterProperty;
import org.apache.jmeter.testelement.property.TestElementProperty;
import org.apache.jmeter.threads.JMeterContextService;

import java.net.MalformedURLException;
import java.net.URL;
import java.net.UnknownHostException;
import java.util.List;

/**
 * Opens the thread's session(s) of a name: TCP, TLS for wss, the opening handshake with the extra headers, the
 * subprotocols, permessage-deflate when asked for and the Cookie Manager's cookies. Sessions stay open across
 * iterations: while they all are, this sampler records nothing (its result is ignored), so a plan may open at the
 * top of every iteration. A session the server closed is opened again here. With more than one session per thread
 * the sample is the whole group's opening, one sub-result per handshake.
 */
public class WebSocketOpenSampler extends WebSocketSampler {
    private static final long serialVersionUID = 1L;

    public static final String URL = "websocket.url";
    /** Extra handshake headers, one "Name: value" per line. */
    public static final String HEADERS = "websocket.headers";
    public static final String SUBPROTOCOLS = "websocket.subprotocols";
    /** Offer permessage-deflate (RFC 7692). */
    public static final String COMPRESSION = "websocket.compression";
    public static final String CONNECT_TIMEOUT = "websocket.connect_timeout";
    /** Milliseconds from the connect to the server's answer to the upgrade (the TLS handshake included). */
    public static final String HANDSHAKE_TIMEOUT = "websocket.handshake_timeout";
    public static final String MAX_MESSAGE_BYTES = "websocket.max_message_bytes";
    public static final String PING_MS = "websocket.ping_ms";
    /** Unsolicited messages a session keeps for a later wait. */
    public static final String INBOX = "websocket.inbox";
    public static final String TLS_TRUST_ALL = "websocket.tls.trust_all";
    public static final String TLS_SNI = "websocket.tls.sni";
    /** Same syntax as the HTTP samplers' source addresses. */
    public static final String SOURCE_ADDRESSES = io.stampede.names.PluginNames.SOURCE_ADDRESSES;
    public static final String SESSIONS_PER_THREAD = "websocket.sessions_per_thread";
    /** Milliseconds between two messages of one session in a group; the openings are spread over one interval. */
    public static final String PACING_MS = "websocket.pacing_ms";
    private static final String COOKIE_MANAGER = "HTTPSampler.cookie_manager";
    private static final String[] PROPERTIES = {URL, HEADERS, SUBPROTOCOLS, COMPRESSION, CONNECT_TIMEOUT,
        HANDSHAKE_TIMEOUT, MAX_MESSAGE_BYTES, PING_MS, INBOX, TLS_TRUST_ALL, TLS_SNI, SOURCE_ADDRESSES,
        SESSIONS_PER_THREAD, PACING_MS};

    private transient String lastInputs;
    private transient SessionSettings lastSettings;

    @Override
    SampleResult sample(UserSessions<SessionGroup> ts, SampleResult res) throws UnknownHostException {
        SessionSettings s = settings();
        int firstSource = JMeterContextService.getContext().getThreadNum();
        SessionGroup g = ts.open(sessionName(), same -> same.settings().equals(s), () -> new SessionGroup(s, firstSource));
        if (g.allOpen()) {
            res.setIgnore();
            return res;
        }
        CookieManager cookies = cookieManager();
        URL httpUrl = cookies == null ? null : httpUrl(s.url());
        List<WebSocketCall> done = g.open(cookies == null ? null : cookies.getCookieHeaderForURL(httpUrl));
        if (done == null) {
            return filled(res, null, g, null);
        }
        if (done.isEmpty()) {
            res.setIgnore();
            return res;
        }
        String request = "GET " + s.url() + "\n" + getPropertyAsString(HEADERS);
        if (g.single()) {
            WebSocketCall c = done.get(0);
            keepCookies(cookies, httpUrl, c);
            return filled(res, c, g, request);
        }
        return groupResult(res, done, g, request, cookies, httpUrl);
    }

    private SampleResult groupResult(SampleResult res, List<WebSocketCall> done, SessionGroup g, String request,
                                     CookieManager cookies, URL httpUrl) {
        SampleResult first = null;
        int failed = 0;
        long start = Long.MAX_VALUE;
        long end = 0;
        long in = 0;
        long out = 0;
        for (WebSocketCall c : done) {
            keepCookies(cookies, httpUrl, c);
            SampleResult sub = new SampleResult();
            sub.setSampleLabel(getName());
            filled(sub, c, g, request);
            if (!sub.isSuccessful()) {
                failed++;
                if (first == null) {
                    first = sub;
                }
            }
            start = Math.min(start, sub.getStartTime());
            end = Math.max(end, sub.getEndTime());
            in += sub.getBytesAsLong();
            out += sub.getSentBytes();
            res.addRawSubResult(sub);
        }
        res.setStampAndTime(start, end - start);
        res.setBytes(in);
        res.setSentBytes(out);
        res.setSamplerData(request);
        if (first == null) {
            res.setResponseCode("101");
            res.setResponseMessage(done.size() + " sessions opened");
            res.setSuccessful(true);
        } else {
            res.setResponseCode(first.getResponseCode());
            res.setResponseMessage(first.getResponseMessage() + " (" + failed + " of " + done.size()
                    + " handshakes failed)");
            res.setSuccessful(false);
        }
        return res;
    }

    private SessionSettings settings() throws UnknownHostException {
        StringBuilder b = new StringBuilder(128);
        for (String p : PROPERTIES) {
            b.append(getPropertyAsString(p)).append('\u0000');
        }
        String inputs = b.toString();
        if (!inputs.equals(lastInputs)) {
            lastSettings = SessionSettings.read(this::getPropertyAsString);
            lastInputs = inputs;
        }
        return lastSettings;
    }

    private static URL httpUrl(String wsUrl) {
        try {
            return new URL(wsUrl.replaceFirst("^(?i)ws", "http"));
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException(URL + ": '" + wsUrl + "': " + e.getMessage());
        }
    }

    private static void keepCookies(CookieManager cookies, URL url, WebSocketCall c) {
        if (cookies != null && c.setCookies() != null) {
            for (String header : c.setCookies()) {
                cookies.addCookieFromHeader(header, url);
            }
        }
    }

    /** JMeter hands the Cookie Manager in scope to each sample as it does to its HTTP samplers. */
    @Override
    public void addTestElement(TestElement el) {
        if (el instanceof CookieManager) {
            setProperty(new TestElementProperty(COOKIE_MANAGER, el));
        } else {
            super.addTestElement(el);
        }
    }

    private CookieManager cookieManager() {
        JMeterProperty p = getProperty(COOKIE_MANAGER);
        return p instanceof TestElementProperty t && t.getObjectValue() instanceof CookieManager cm ? cm : null;
    }

    public void setUrl(String url) {
        setProperty(URL, url);
    }
}
