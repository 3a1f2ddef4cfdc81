/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.httprequest.gui;

import io.stampede.httprequest.EngineHttpRequest;
import io.stampede.names.PluginNames;
import org.apache.jmeter.gui.util.HorizontalPanel;
import org.apache.jmeter.protocol.http.control.gui.HttpTestSampleGui;
import org.apache.jmeter.testelement.TestElement;

import java.awt.Container;
import javax.swing.JComboBox;
import javax.swing.JLabel;

/**
 * The stock HTTP Request panel (every tab, every field: the element's properties are JMeter's own) for Stampede's
 * HTTP Request, listed under Add > Sampler as "HTTP Request (Stampede engine)". Only the element it creates differs,
 * as JMeter's own AJP sampler panel reuses this one, and one line under the name: the HTTP protocol
 * ({@code stampede.protocol}), left empty for the plan-wide JMeter property of that name.
 */
public class EngineHttpRequestGui extends HttpTestSampleGui {

    private static final long serialVersionUID = 1L;

    static final String LABEL = "HTTP Request (Stampede engine)";

    /** Editable, so that a ${variable} or ${__P()} can choose; made in makeTitlePanel, which the panel calls first. */
    private JComboBox<String> protocol;

    @Override
    public TestElement makeTestElement() {
        return new EngineHttpRequest();
    }

    // Our own label: the stock one ("HTTP Request") would make the two entries of the Sampler menu look the same.
    @Override
    public String getStaticLabel() {
        return LABEL;
    }

    /** JMeter's help for the stock HTTP Request, whose fields these are. */
    @Override
    public String getDocAnchor() {
        return super.getStaticLabel().replace(' ', '_');
    }

    @Override
    protected Container makeTitlePanel() {
        Container title = super.makeTitlePanel();
        protocol = new JComboBox<>(new String[] {"", "http/1.1", "h2", "h2c"});
        protocol.setEditable(true);
        protocol.setToolTipText(PluginNames.PROTOCOL + ": empty = the JMeter property " + PluginNames.PROTOCOL
                + " (else http/1.1); h2 = HTTP/2 over TLS with ALPN, HTTP/1.1 if the server does not offer h2 (https "
                + "URLs); h2c = HTTP/2 over cleartext, prior knowledge (http URLs)");
        HorizontalPanel row = new HorizontalPanel();
        JLabel label = new JLabel("HTTP protocol (Stampede engine):");
        label.setLabelFor(protocol);
        row.add(label);
        row.add(protocol);
        title.add(row);
        return title;
    }

    @Override
    public void configure(TestElement element) {
        super.configure(element);
        protocol.setSelectedItem(element.getPropertyAsString(PluginNames.PROTOCOL));
    }

    @Override
    public void modifyTestElement(TestElement element) {
        super.modifyTestElement(element);
        String p = String.valueOf(protocol.getEditor().getItem()).trim();
        // Nothing written when empty: a plan saved from this panel holds exactly what the stock panel saves.
        if (p.isEmpty()) {
            element.removeProperty(PluginNames.PROTOCOL);
        } else {
            element.setProperty(PluginNames.PROTOCOL, p);
        }
    }

    @Override
    public void clearGui() {
        super.clearGui();
        protocol.setSelectedItem("");
    }
}
