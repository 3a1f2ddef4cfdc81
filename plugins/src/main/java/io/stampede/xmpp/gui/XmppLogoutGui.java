/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.xmpp.gui;

import io.stampede.xmpp.XmppLogoutSampler;
import org.apache.jmeter.testelement.TestElement;

import java.util.List;

/** The panel of {@link XmppLogoutSampler}. */
public class XmppLogoutGui extends XmppPanel {
    private static final long serialVersionUID = 1L;

    public XmppLogoutGui() {
        super(List.of(
                Field.text(XmppLogoutSampler.TIMEOUT, "Timeout (ms)", "5000", 8, "How long to wait for the "
                        + "server&apos;s end of stream before closing anyway (then the sample fails as a timeout).")));
    }

    @Override
    public String getStaticLabel() {
        return "Stampede XMPP Disconnect";
    }

    @Override
    TestElement newElement() {
        return new XmppLogoutSampler();
    }
}
