/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.xmpp;

import io.stampede.engine.xmpp.Xml;
import io.stampede.engine.xmpp.XmppSession;
import org.apache.jmeter.samplers.SampleResult;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * XMPP Send: a message to a JID (carrying the send time, so the receiver's sample measures delivery), a presence
 * (available with show and status, or unavailable), or a raw stanza as written (JMeter variables substituted). The
 * sample is the write; a reply, if any, is another element's business (IQ, Wait).
 */
public class XmppSendSampler extends XmppSampler {
    private static final long serialVersionUID = 1L;

    public static final String KIND = "xmpp.send.kind";
    public static final String TO = "xmpp.send.to";
    public static final String BODY = "xmpp.send.body";
    public static final String MESSAGE_TYPE = "xmpp.send.message_type";
    public static final String STAMP = "xmpp.send.stamp";
    public static final String PRESENCE_TYPE = "xmpp.send.presence_type";
    public static final String SHOW = "xmpp.send.show";
    public static final String STATUS = "xmpp.send.status";
    public static final String RAW = "xmpp.send.raw";
    /** In "to": another logged-in session of this thread, chosen at random. */
    public static final String PEER = "{peer}";

    /** What to send. */
    public enum Kind { MESSAGE, PRESENCE, RAW }

    @Override
    SampleResult run(SampleResult res, long startNanos) throws IOException {
        XmppSession s = currentSession();
        int[] peer = {-1};
        String xml = stanza(s, peer);
        long written = await(s.send(xml), null, 10_000, "write");
        if (peer[0] >= 0) {
            SessionTurns.ofThread().owe(peer[0]);
        }
        times(res, startNanos, written);
        res.setSamplerData(xml);
        res.setSentBytes(xml.getBytes(StandardCharsets.UTF_8).length);
        ok(res, "sent", "");
        return res;
    }

    String stanza(XmppSession s) {
        return stanza(s, new int[1]);
    }

    /** The stanza to send; a message to {@code {peer}} puts the chosen session's index in {@code peer[0]}. */
    String stanza(XmppSession s, int[] peer) {
        String kind = getPropertyAsString(KIND, "message").trim().toUpperCase(Locale.ROOT);
        switch (kind) {
            case "MESSAGE" -> {
                String to = to(peer);
                if (to.isEmpty()) {
                    throw new IllegalArgumentException(TO + " is empty: a message needs an addressee (a JID, or "
                            + PEER + ")");
                }
                String type = getPropertyAsString(MESSAGE_TYPE, "chat").trim();
                return "<message to='" + Xml.escape(to) + "' type='" + Xml.escape(type.isEmpty() ? "chat" : type)
                        + "'><body>" + Xml.escape(getPropertyAsString(BODY)) + "</body>"
                        + (getPropertyAsBoolean(STAMP, true) ? SentStamp.element(SentStamp.nowMicros()) : "")
                        + "</message>";
            }
            case "PRESENCE" -> {
                String to = to(new int[1]);
                String type = getPropertyAsString(PRESENCE_TYPE).trim();
                String show = getPropertyAsString(SHOW).trim();
                String status = getPropertyAsString(STATUS);
                StringBuilder b = new StringBuilder("<presence");
                if (!to.isEmpty()) {
                    b.append(" to='").append(Xml.escape(to)).append('\'');
                }
                if (!type.isEmpty() && !type.equals("available")) {
                    b.append(" type='").append(Xml.escape(type)).append('\'');
                }
                if (show.isEmpty() && status.isEmpty()) {
                    return b.append("/>").toString();
                }
                b.append('>');
                if (!show.isEmpty()) {
                    b.append("<show>").append(Xml.escape(show)).append("</show>");
                }
                if (!status.isEmpty()) {
                    b.append("<status>").append(Xml.escape(status)).append("</status>");
                }
                return b.append("</presence>").toString();
            }
            case "RAW" -> {
                String raw = getPropertyAsString(RAW).trim();
                if (raw.isEmpty()) {
                    throw new IllegalArgumentException(RAW + " is empty: write the stanza to send");
                }
                return raw;
            }
            default -> throw new IllegalArgumentException(KIND + " must be message, presence or raw, got '"
                    + getPropertyAsString(KIND) + "'");
        }
    }

    private String to(int[] peerIndex) {
        String to = getPropertyAsString(TO).trim();
        if (to.contains(PEER)) {
            SessionTurns t = SessionTurns.ofThread();
            int i = t == null ? -1 : t.randomPeer();
            if (i < 0) {
                throw new IllegalArgumentException(TO + " names " + PEER + " but this thread has no other logged-in "
                        + "session (set " + XmppLoginSampler.SESSIONS + " above 1)");
            }
            peerIndex[0] = i;
            to = to.replace(PEER, t.jid(i));
        }
        return to;
    }
}
