/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.xmpp.gui;

import io.stampede.xmpp.XmppSendSampler;
import org.apache.jmeter.testelement.TestElement;

import java.util.List;

/** The panel of {@link XmppSendSampler}. */
public class XmppSendGui extends XmppPanel {
    private static final long serialVersionUID = 1L;

    public XmppSendGui() {
        super(List.of(
                Field.choice(XmppSendSampler.KIND, "Send", "message", List.of("message", "presence", "raw"),
                        "A message, a presence, or a raw stanza as written."),
                Field.text(XmppSendSampler.TO, "To", "", 30, "Addressee JID; {peer}: another logged-in session of "
                        + "this thread at random. Presence: empty broadcasts to the roster."),
                Field.text(XmppSendSampler.BODY, "Message body", "", 30, "The message text."),
                Field.choice(XmppSendSampler.MESSAGE_TYPE, "Message type", "chat", List.of("chat", "normal",
                        "headline"), "The message&apos;s type attribute."),
                Field.check(XmppSendSampler.STAMP, "Carry the send time", true, "Adds the send time, so the "
                        + "receiver&apos;s Wait sample measures delivery end to end."),
                Field.choice(XmppSendSampler.PRESENCE_TYPE, "Presence type", "available", List.of("available",
                        "unavailable"), "available (initial or change) or unavailable."),
                Field.choice(XmppSendSampler.SHOW, "Show", "", List.of("", "away", "chat", "dnd", "xa"),
                        "The presence&apos;s show value; empty: online."),
                Field.text(XmppSendSampler.STATUS, "Status", "", 30, "The presence&apos;s status text."),
                Field.area(XmppSendSampler.RAW, "Raw stanza", "The stanza to send, as written (JMeter variables "
                        + "substituted).")));
    }

    @Override
    public String getStaticLabel() {
        return "Stampede XMPP Send";
    }

    @Override
    TestElement newElement() {
        return new XmppSendSampler();
    }
}
