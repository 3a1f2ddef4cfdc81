/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.xmpp;

/**
 * A stream error the server sent (RFC 6120 4.9), or a stream that ended without one (condition "closed", or
 * "connection" for a transport failure): the session is over.
 */
public final class XmppStreamException extends XmppException {
    private static final long serialVersionUID = 1L;

    public XmppStreamException(String condition, String detail) {
        super(condition, "stream error: " + condition + (detail == null || detail.isEmpty() ? "" : " (" + detail + ")"));
    }

    public XmppStreamException(String condition, String detail, Throwable cause) {
        this(condition, detail);
        initCause(cause);
    }

    /** The server's {@code <stream:error>}: its defined condition and its text. */
    static XmppStreamException of(XmlElement streamError) {
        String condition = "undefined-condition";
        for (XmlElement c : streamError.children()) {
            if (c.ns().equals(XmppSession.NS_STREAMS) && !c.name().equals("text")) {
                condition = c.name();
                break;
            }
        }
        XmlElement text = streamError.child("text", XmppSession.NS_STREAMS);
        return new XmppStreamException(condition, text == null ? "" : text.text());
    }
}
