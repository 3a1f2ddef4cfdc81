/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.websocket;

import io.stampede.engine.websocket.WebSocketCall;
import io.stampede.engine.websocket.WebSocketSession;
import io.stampede.sessions.UserSessions;
import org.apache.jmeter.samplers.SampleResult;

import java.util.HexFormat;
import java.util.Locale;

/**
 * The samplers that send, wait, or both, on the thread's session(s): the message and the match are read per sample
 * (variables change them) and kept while their inputs are unchanged, so a steady sample builds neither again. On a
 * group of sessions each sample is the next call of the schedule to complete.
 */
abstract class WebSocketMessageSampler extends WebSocketSampler {
    private static final long serialVersionUID = 1L;

    private transient String lastText;
    private transient String lastType;
    private transient byte[] lastPayload;
    private transient MessageMatch lastMatch;

    /** What this sampler asks of a session. */
    abstract WebSocketCall.Kind kind();

    @Override
    SampleResult sample(UserSessions<SessionGroup> ts, SampleResult res) {
        SessionGroup g = openedGroup(ts);
        WebSocketCall.Kind k = kind();
        byte[] payload = k == WebSocketCall.Kind.WAIT ? null : payload();
        MessageMatch match = k == WebSocketCall.Kind.SEND ? null : match();
        SessionGroup.Order order = new SessionGroup.Order(k, !binary(), payload, match,
                getPropertyAsBoolean(KEEP_UNSOLICITED, false), timeoutMillis());
        WebSocketCall c = g.message(this, order);
        SampleResult filled = filled(res, c, g, samplerData(match));
        if (c != null) {
            g.rearm(c);
        }
        return filled;
    }

    private String samplerData(MessageMatch match) {
        StringBuilder b = new StringBuilder();
        if (kind() != WebSocketCall.Kind.WAIT) {
            b.append(binary() ? "binary: " : "text: ").append(getPropertyAsString(MESSAGE)).append('\n');
        }
        if (match != null) {
            b.append("wait for: ").append(match).append('\n');
        }
        return b.toString();
    }

    private boolean binary() {
        return "binary".equals(getPropertyAsString(MESSAGE_TYPE).trim().toLowerCase(Locale.ROOT));
    }

    private byte[] payload() {
        String text = getPropertyAsString(MESSAGE);
        String type = getPropertyAsString(MESSAGE_TYPE);
        if (lastPayload != null && text.equals(lastText) && type.equals(lastType)) {
            return lastPayload;
        }
        String t = type.trim().toLowerCase(Locale.ROOT);
        byte[] p;
        if (t.isEmpty() || t.equals("text")) {
            p = WebSocketSession.utf8(text);
        } else if (t.equals("binary")) {
            try {
                p = HexFormat.of().parseHex(text.replaceAll("\\s+", ""));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(MESSAGE + ": a binary message is written as hex digits (two "
                        + "per byte, spaces allowed): " + e.getMessage());
            }
        } else {
            throw new IllegalArgumentException(MESSAGE_TYPE + ": '" + type + "'; use text or binary");
        }
        lastText = text;
        lastType = type;
        lastPayload = p;
        return p;
    }

    private MessageMatch match() {
        String k = getPropertyAsString(MATCH);
        String e = getPropertyAsString(MATCH_EXPRESSION);
        String v = getPropertyAsString(MATCH_VALUE);
        MessageMatch m = lastMatch;
        if (m == null || !m.is(k, e, v)) {
            m = MessageMatch.of(k, e, v);
            lastMatch = m;
        }
        return m;
    }
}
