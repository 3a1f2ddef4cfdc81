/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.xmpp;

import io.stampede.engine.xmpp.Received;
import io.stampede.engine.xmpp.StanzaErrorException;
import io.stampede.engine.xmpp.Xml;
import io.stampede.engine.xmpp.XmlElement;
import io.stampede.engine.xmpp.XmppSession;
import org.apache.jmeter.samplers.SampleResult;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * XMPP IQ: sends an IQ (get or set, the payload as written, e.g. a roster query) and waits for its result: the
 * sample is the round trip, from the write to the reply's first byte. An error reply fails the sample as a stanza
 * error, with the condition; no reply within the timeout, as a timeout.
 */
public class XmppIqSampler extends XmppSampler {
    private static final long serialVersionUID = 1L;

    public static final String TYPE = "xmpp.iq.type";
    public static final String TO = "xmpp.iq.to";
    public static final String PAYLOAD = "xmpp.iq.payload";
    public static final String TIMEOUT = "xmpp.iq.timeout_ms";

    private transient long ids;

    @Override
    SampleResult run(SampleResult res, long startNanos) throws IOException {
        XmppSession s = currentSession();
        String type = getPropertyAsString(TYPE, "get").trim();
        if (!type.equals("get") && !type.equals("set")) {
            throw new IllegalArgumentException(TYPE + " must be get or set, got '" + type + "'");
        }
        String id = "st" + Long.toString(++ids, 36) + '-' + Integer.toHexString(System.identityHashCode(this));
        String to = getPropertyAsString(TO).trim();
        String xml = "<iq type='" + type + "' id='" + id + "'" + (to.isEmpty() ? "" : " to='" + Xml.escape(to) + "'")
                + ">" + getPropertyAsString(PAYLOAD).trim() + "</iq>";
        res.setSamplerData(xml);
        res.setSentBytes(xml.getBytes(StandardCharsets.UTF_8).length);
        Received r = await(s.request(xml, id), s, intProperty(TIMEOUT, 10_000, 1, Integer.MAX_VALUE),
                "IQ " + id + " result");
        XmlElement reply = r.stanza();
        String data = reply.toXml();
        times(res, r.sentNanos(), r.receivedNanos());
        res.setLatency(res.getTime());
        res.setBodySize(data.length());
        if ("error".equals(reply.attr("type"))) {
            failed(res, r.sentNanos(), StanzaErrorException.of(reply, "IQ " + type));
            res.setResponseData(data, StandardCharsets.UTF_8.name());
            return res;
        }
        XmlElement payload = reply.children().isEmpty() ? null : reply.children().get(0);
        ok(res, payload == null ? "result" : "result: " + payload.children().size() + " items", data);
        return res;
    }
}
