/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.xmpp;

import io.stampede.engine.xmpp.InboxOverflowException;
import io.stampede.engine.xmpp.Received;
import io.stampede.engine.xmpp.StanzaErrorException;
import io.stampede.engine.xmpp.XmlElement;
import io.stampede.engine.xmpp.XmppException;
import io.stampede.engine.xmpp.XmppSession;
import io.stampede.engine.xmpp.XmppTimeoutException;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;

import java.io.IOException;
import java.util.function.Predicate;

/**
 * XMPP Wait: the first stanza matching a condition (its name, the sender, a text it contains), from those the session
 * received and kept or the next to arrive, within a timeout. For a message that carries its sender's send time, the
 * sample runs from that time to the message's arrival: delivery, end to end; else from the wait's start. With timeout
 * 0 it only looks at what already arrived and records nothing when nothing matches; with {@link #OWED} it waits only
 * while messages this thread's users sent to this one are still owed. Sets {@code stampede_xmpp_inbox}, the stanzas
 * still kept, and {@code stampede_xmpp_owed}, so a While Controller can take them all. Stanzas pushed out of the
 * session's full inbox since its last wait fail this sample first, as an inbox overflow naming how many.
 */
public class XmppWaitSampler extends XmppSampler {
    private static final long serialVersionUID = 1L;

    public static final String STANZA = "xmpp.wait.stanza";
    public static final String FROM = "xmpp.wait.from";
    public static final String CONTAINS = "xmpp.wait.contains";
    public static final String TIMEOUT = "xmpp.wait.timeout_ms";
    /**
     * True: wait (up to the timeout) only while messages this thread's sessions sent to this one ({@code {peer}})
     * have not been taken; with none owed, only look at what already arrived. A timeout gives up on all of them, named
     * in the failure, so a While Controller on {@code stampede_xmpp_owed} ends.
     */
    public static final String OWED = "xmpp.wait.owed";

    @Override
    SampleResult run(SampleResult res, long startNanos) throws IOException {
        SessionTurns t = SessionTurns.ofThread();
        XmppSession s;
        try {
            s = currentSession();
        } catch (XmppException e) {
            // A session that is over holds nothing more to take: the loops that take its stanzas must end.
            if (t != null) {
                t.writeOff();
            }
            inboxVariables(0, 0);
            throw e;
        }
        InboxOverflowException lost = s.takeInboxOverflow();
        if (lost != null) {
            // Reported before the wait, which it replaces: the loop taking the session's stanzas goes on after it.
            if (t != null) {
                t.took(lost.messages());
            }
            inboxVariables(s.inboxSize(), t == null ? 0 : t.owed());
            throw lost;
        }
        int timeout = intProperty(TIMEOUT, 10_000, 0, Integer.MAX_VALUE);
        Predicate<XmlElement> matcher = matcher(getPropertyAsString(STANZA, "message").trim(),
                getPropertyAsString(FROM).trim(), getPropertyAsString(CONTAINS));
        boolean owedOnly = getPropertyAsBoolean(OWED, false);
        int owed = owedOnly ? t.owed() : 0;
        Received r;
        try {
            r = timeout == 0 || owedOnly && owed == 0 ? await(s.poll(matcher), s, 10_000, "inbox")
                    : await(s.await(matcher), s, timeout, owedOnly ? owed + " message(s) sent to " + s.jid()
                    + " by this thread's users" : "stanza matching " + describe());
        } catch (XmppTimeoutException e) {
            if (owedOnly) {
                t.writeOff();
            }
            throw e;
        } finally {
            inboxVariables(s.inboxSize(), t == null ? 0 : t.owed());
        }
        if (r == null) {
            return null;
        }
        if (t != null && r.stanza().name().equals("message") && !"error".equals(r.stanza().attr("type"))) {
            t.took(1);
            inboxVariables(s.inboxSize(), t.owed());
        }
        String data = r.stanza().toXml();
        long sentMicros = SentStamp.of(r.stanza());
        if (sentMicros > 0) {
            long arrivalMicros = SentStamp.nowMicros() - (System.nanoTime() - r.receivedNanos()) / 1_000;
            res.setStampAndTime(sentMicros / 1_000, Math.max(0, (arrivalMicros - sentMicros) / 1_000));
        } else {
            times(res, startNanos, Math.max(startNanos, r.receivedNanos()));
        }
        res.setLatency(res.getTime());
        res.setBodySize(data.length());
        if ("error".equals(r.stanza().attr("type"))) {
            failed(res, startNanos, StanzaErrorException.of(r.stanza(), r.stanza().name()));
            res.setResponseData(data, java.nio.charset.StandardCharsets.UTF_8.name());
            return res;
        }
        ok(res, r.stanza().name() + (r.stanza().attr("from") == null ? "" : " from " + r.stanza().attr("from")),
                data);
        return res;
    }

    /** The variables a While Controller taking the current session's stanzas reads. */
    static void inboxVariables(int inbox, int owed) {
        JMeterVariables vars = JMeterContextService.getContext().getVariables();
        vars.put("stampede_xmpp_inbox", Integer.toString(inbox));
        vars.put("stampede_xmpp_owed", Integer.toString(owed));
    }

    private String describe() {
        return getPropertyAsString(STANZA, "message") + (getPropertyAsString(FROM).isBlank() ? ""
                : " from " + getPropertyAsString(FROM)) + (getPropertyAsString(CONTAINS).isEmpty() ? ""
                : " containing '" + getPropertyAsString(CONTAINS) + "'");
    }

    /** Name ("any" for all), a substring of the sender's JID, a substring of the stanza's XML: all must hold. */
    static Predicate<XmlElement> matcher(String name, String from, String contains) {
        String n = name.isEmpty() || name.equals("any") ? null : name;
        if (n != null && !n.equals("message") && !n.equals("presence") && !n.equals("iq")) {
            throw new IllegalArgumentException(STANZA + " must be message, presence, iq or any, got '" + name + "'");
        }
        return e -> (n == null || e.name().equals(n))
                && (from.isEmpty() || String.valueOf(e.attr("from")).contains(from))
                && (contains.isEmpty() || e.toXml().contains(contains));
    }
}
