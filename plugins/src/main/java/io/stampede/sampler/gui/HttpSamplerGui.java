/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sampler.gui;

import io.stampede.names.PluginNames;
import io.stampede.sampler.HttpSampler;
import org.apache.jmeter.testelement.TestElement;

import javax.swing.JComboBox;
import javax.swing.JPanel;
import javax.swing.JTextArea;
import javax.swing.JTextField;
import java.awt.BorderLayout;
import java.awt.GridLayout;

/** Editor of the Stampede HTTP Request sampler. */
public class HttpSamplerGui extends StampedeSamplerGui {
    private static final long serialVersionUID = 1L;

    private static final String[] METHODS = {"GET", "POST", "PUT", "DELETE", "HEAD", "PATCH", "OPTIONS"};

    private JComboBox<String> method;
    private JComboBox<String> scheme;
    private JTextField path;
    private JTextArea headers;
    private JTextArea body;

    public HttpSamplerGui() {
        method = new JComboBox<>(METHODS);
        method.setEditable(true);
        method.setToolTipText("HTTP method (stampede.http.method), default GET; any token may be typed.");
        path = field(28, "Request path with query, e.g. /search?q=x (stampede.http.path), default /.");
        headers = area("Request headers, one 'Name: value' per line (stampede.http.headers). Host, Content-Length "
                + "and, without keep-alive, Connection: close are added unless given here.");
        body = area("Request body sent as UTF-8 (stampede.http.body).");
        scheme = new JComboBox<>(new String[] {"http", "https"});
        scheme.setToolTipText("http or https (stampede.http.scheme); with https the TLS handshake is part of "
                + "Connect.");
        JPanel left = new JPanel(new BorderLayout(5, 0));
        left.add(scheme, BorderLayout.WEST);
        left.add(method, BorderLayout.EAST);
        JPanel line = new JPanel(new BorderLayout(5, 0));
        line.add(left, BorderLayout.WEST);
        line.add(path, BorderLayout.CENTER);
        addToForm(titled("Method and path", line), false);
        JPanel texts = new JPanel(new GridLayout(2, 1, 0, 5));
        texts.add(titled("Headers", headers));
        texts.add(titled("Body", body));
        addToForm(texts, true);
        clearGui();
    }

    @Override
    public String getLabelResource() {
        return "stampede_http_request";
    }

    /** Our own label: JMeter's resource bundle does not know our key. */
    @Override
    public String getStaticLabel() {
        return "Stampede HTTP Request";
    }

    @Override
    public TestElement createTestElement() {
        HttpSampler s = new HttpSampler();
        modifyTestElement(s);
        return s;
    }

    @Override
    public void configure(TestElement el) {
        super.configure(el);
        method.setSelectedItem(el.getPropertyAsString(PluginNames.HTTP_METHOD));
        String s = el.getPropertyAsString(PluginNames.HTTP_SCHEME);
        scheme.setSelectedItem(s.isEmpty() ? "http" : s);
        path.setText(el.getPropertyAsString(PluginNames.HTTP_PATH));
        headers.setText(el.getPropertyAsString(PluginNames.HTTP_HEADERS));
        body.setText(el.getPropertyAsString(PluginNames.HTTP_BODY));
    }

    @Override
    public void modifyTestElement(TestElement el) {
        super.modifyTestElement(el);
        Object m = method.getEditor().getItem();
        el.setProperty(PluginNames.HTTP_METHOD, m == null ? "" : m.toString());
        el.setProperty(PluginNames.HTTP_PATH, path.getText());
        el.setProperty(PluginNames.HTTP_SCHEME, String.valueOf(scheme.getSelectedItem()));
        el.setProperty(PluginNames.HTTP_HEADERS, headers.getText());
        el.setProperty(PluginNames.HTTP_BODY, body.getText());
    }

    @Override
    public void clearGui() {
        super.clearGui();
        // Called by the superclass constructor before our fields exist.
        if (method != null) {
            method.setSelectedItem("GET");
            scheme.setSelectedItem("http");
            path.setText("/");
            headers.setText("");
            body.setText("");
        }
    }
}
