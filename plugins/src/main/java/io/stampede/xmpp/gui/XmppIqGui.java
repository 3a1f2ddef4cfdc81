/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.xmpp.gui;

import io.stampede.xmpp.XmppIqSampler;
import org.apache.jmeter.testelement.TestElement;

import java.util.List;

/** The panel of {@link XmppIqSampler}. */
public class XmppIqGui extends XmppPanel {
    private static final long serialVersionUID = 1L;

    public XmppIqGui() {
        super(List.of(
                Field.choice(XmppIqSampler.TYPE, "Type", "get", List.of("get", "set"), "The IQ&apos;s type."),
                Field.text(XmppIqSampler.TO, "To", "", 30, "Addressee; empty: the user&apos;s own server."),
                Field.text(XmppIqSampler.TIMEOUT, "Timeout (ms)", "10000", 8,
                        "No result within it: a failed sample of kind timeout."),
                Field.area(XmppIqSampler.PAYLOAD, "Payload", "The IQ&apos;s child, e.g. "
                        + "&lt;query xmlns=&apos;jabber:iq:roster&apos;/&gt; for the roster.")));
    }

    @Override
    public String getStaticLabel() {
        return "Stampede XMPP IQ";
    }

    @Override
    TestElement newElement() {
        return new XmppIqSampler();
    }
}
