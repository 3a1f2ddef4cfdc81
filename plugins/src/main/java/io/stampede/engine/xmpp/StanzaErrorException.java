/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.xmpp;

/** An error reply to one of our stanzas (type="error", RFC 6120 8.3): the session goes on. */
public final class StanzaErrorException extends XmppException {
    private static final long serialVersionUID = 1L;

    public StanzaErrorException(String condition, String detail) {
        super(condition, "stanza error: " + condition
                + (detail == null || detail.isEmpty() ? "" : " (" + detail + ")"));
    }

    /** The error of a {@code type='error'} reply, {@code what} naming the request (as "IQ get"). */
    public static StanzaErrorException of(XmlElement reply, String what) {
        XmlElement error = reply.child("error");
        String condition = "undefined-condition";
        String type = "";
        String text = "";
        if (error != null) {
            type = String.valueOf(error.attr("type"));
            for (XmlElement c : error.children()) {
                if (c.ns().equals(XmppSession.NS_STANZAS) && !c.name().equals("text")) {
                    condition = c.name();
                } else if (c.name().equals("text")) {
                    text = c.text();
                }
            }
        }
        return new StanzaErrorException(condition, what + ", type " + type + (text.isEmpty() ? "" : ": " + text));
    }
}
