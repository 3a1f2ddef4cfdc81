/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sampler.gui;

import io.stampede.names.PluginNames;
import io.stampede.sampler.HttpRawSampler;
import org.apache.jmeter.testelement.TestElement;
import org.apache.jmeter.testelement.property.BooleanProperty;

import javax.swing.JCheckBox;
import javax.swing.JPanel;
import javax.swing.JTextArea;

/** Editor of the Stampede HTTP RAW Request sampler. */
public class HttpRawSamplerGui extends StampedeSamplerGui {
    private static final long serialVersionUID = 1L;

    private JTextArea request;
    private JCheckBox crlf;
    private JCheckBox tls;

    public HttpRawSamplerGui() {
        request = area("The raw HTTP request (stampede.raw.request): request line, headers, blank line, body. "
                + "JMeter variables and functions are substituted.");
        crlf = new JCheckBox("Send line endings as CRLF");
        crlf.setToolTipText("Normalise every line ending to CR LF and end the header block with a blank line "
                + "(stampede.raw.crlf). Turn off to send the text byte for byte.");
        addToForm(titled("Raw request", request), true);
        tls = new JCheckBox("TLS (https)");
        tls.setToolTipText("Send the request over TLS (stampede.tls); the handshake is part of Connect.");
        JPanel checks = new JPanel(new java.awt.FlowLayout(java.awt.FlowLayout.LEFT, 0, 0));
        checks.add(crlf);
        checks.add(tls);
        addToForm(checks, false);
        clearGui();
    }

    @Override
    public String getLabelResource() {
        return "stampede_http_raw_request";
    }

    /** Our own label: JMeter's resource bundle does not know our key. */
    @Override
    public String getStaticLabel() {
        return "Stampede HTTP RAW Request";
    }

    @Override
    public TestElement createTestElement() {
        HttpRawSampler s = new HttpRawSampler();
        modifyTestElement(s);
        return s;
    }

    @Override
    public void configure(TestElement el) {
        super.configure(el);
        request.setText(el.getPropertyAsString(PluginNames.RAW_REQUEST));
        request.setCaretPosition(0);
        crlf.setSelected(el.getPropertyAsBoolean(PluginNames.RAW_CRLF, true));
        tls.setSelected(el.getPropertyAsBoolean(PluginNames.RAW_TLS, false));
    }

    @Override
    public void modifyTestElement(TestElement el) {
        super.modifyTestElement(el);
        el.setProperty(PluginNames.RAW_REQUEST, request.getText());
        el.setProperty(new BooleanProperty(PluginNames.RAW_CRLF, crlf.isSelected()));
        el.setProperty(new BooleanProperty(PluginNames.RAW_TLS, tls.isSelected()));
    }

    @Override
    public void clearGui() {
        super.clearGui();
        // Called by the superclass constructor before our fields exist.
        if (request != null) {
            request.setText("GET / HTTP/1.1\nHost: localhost\n\n");
            crlf.setSelected(true);
            tls.setSelected(false);
        }
    }
}
