/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.xmpp.gui;

import io.stampede.xmpp.XmppWaitSampler;
import org.apache.jmeter.testelement.TestElement;

import java.util.List;

/** The panel of {@link XmppWaitSampler}. */
public class XmppWaitGui extends XmppPanel {
    private static final long serialVersionUID = 1L;

    public XmppWaitGui() {
        super(List.of(
                Field.choice(XmppWaitSampler.STANZA, "Stanza", "message", List.of("message", "presence", "iq",
                        "any"), "Which stanzas match."),
                Field.text(XmppWaitSampler.FROM, "From contains", "", 30, "Part of the sender&apos;s JID; empty: any."),
                Field.text(XmppWaitSampler.CONTAINS, "XML contains", "", 30, "Text the stanza&apos;s XML must "
                        + "contain; empty: any."),
                Field.text(XmppWaitSampler.TIMEOUT, "Timeout (ms)", "10000", 8, "Nothing matching within it: a "
                        + "failed sample of kind timeout. 0: only what already arrived, no sample when none."),
                Field.check(XmppWaitSampler.OWED, "Only for messages owed", false, "Wait only while messages this "
                        + "thread&apos;s users sent to this one ({peer}) are missing; a timeout gives them all up. "
                        + "Loop on ${stampede_xmpp_owed} before a logout.")));
    }

    @Override
    public String getStaticLabel() {
        return "Stampede XMPP Wait";
    }

    @Override
    TestElement newElement() {
        return new XmppWaitSampler();
    }
}
