/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in compliance with
 * the License. You may obtain a copy of the License at http://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sampler.gui;

import io.stampede.sampler.StampedeSampler;
import org.apache.jmeter.samplers.gui.AbstractSamplerGui;
import org.apache.jmeter.testelement.TestElement;
import org.apache.jmeter.testelement.property.BooleanProperty;

import javax.swing.BorderFactory;
import javax.swing.Box;
import javax.swing.JCheckBox;
import javax.swing.JComponent;
import javax.swing.JLabel;
import javax.swing.JPanel;
import javax.swing.JScrollPane;
import javax.swing.JTextArea;
import javax.swing.JTextField;
import java.awt.BorderLayout;
import java.awt.Font;
import java.awt.GridBagConstraints;
import java.awt.GridBagLayout;
import java.awt.Insets;

/**
 * The fields both Stampede samplers share (target, timeouts, keep-alive, kept bytes) and the helpers that lay them out.
 * Every field is a plain text field holding the property's string, so  and functions survive a save.
 * No Netty class is touched here: JMeter instantiates GUI classes while scanning lib/ext for its menus.
 */
abstract class StampedeSamplerGui extends AbstractSamplerGui {
    private static final long serialVersionUID = 1L;

    private final JTextField host = field(20, "Server host name or IP address (stampede.host). Variables allowed.");
    private final JTextField port = field(6, "Server port (stampede.port), default 80.");
    private final JTextField connectTimeout = field(7,
            "Milliseconds to wait for a new TCP connection (stampede.connect_timeout), default 5000.");
    private final JTextField responseTimeout = field(7,
            "Milliseconds from sending the request to the complete response (stampede.response_timeout), "
                    + "default 30000.");
    private final JTextField bytesKept = field(9, "How many response body bytes to keep in the result "
            + "(stampede.response_bytes_kept), default 65536. All bytes are still counted in 'bytes'.");
    private final JCheckBox keepAlive = new JCheckBox("Keep-alive");

    private final JPanel form = new JPanel(new GridBagLayout());
    private int row;

    StampedeSamplerGui() {
        keepAlive.setToolTipText("Reuse this thread's connection across samples and iterations "
                + "(stampede.keep_alive). Off: send 'Connection: close' and open a new connection per sample.");
        setLayout(new BorderLayout(0, 5));
        setBorder(makeBorder());
        add(makeTitlePanel(), BorderLayout.NORTH);
        JPanel server = new JPanel(new GridBagLayout());
        server.setBorder(BorderFactory.createTitledBorder("Server"));
        addRow(server, 0, "Host:", host, "Port:", port);
        JPanel options = new JPanel(new GridBagLayout());
        options.setBorder(BorderFactory.createTitledBorder("Connection and response"));
        addRow(options, 0, "Connect timeout (ms):", connectTimeout, "Response timeout (ms):", responseTimeout);
        addRow(options, 1, "Response bytes kept:", bytesKept, null, keepAlive);
        addToForm(server, false);
        addToForm(options, false);
        add(form, BorderLayout.CENTER);
        clearGui();
    }

    static JTextField field(int columns, String tip) {
        JTextField f = new JTextField(columns);
        f.setToolTipText(tip);
        return f;
    }

    static JTextArea area(String tip) {
        JTextArea a = new JTextArea(10, 60);
        a.setFont(new Font(Font.MONOSPACED, Font.PLAIN, a.getFont().getSize()));
        a.setToolTipText(tip);
        return a;
    }

    private static void addRow(JPanel panel, int y, String l1, JComponent c1, String l2, JComponent c2) {
        GridBagConstraints g = new GridBagConstraints();
        g.gridy = y;
        g.insets = new Insets(2, 4, 2, 4);
        g.anchor = GridBagConstraints.WEST;
        panel.add(label(l1, c1), g);
        g.fill = GridBagConstraints.HORIZONTAL;
        g.weightx = 1;
        panel.add(c1, g);
        g.fill = GridBagConstraints.NONE;
        g.weightx = 0;
        panel.add(l2 == null ? Box.createHorizontalStrut(1) : label(l2, c2), g);
        panel.add(c2, g);
    }

    private static JLabel label(String text, JComponent target) {
        JLabel l = new JLabel(text);
        l.setLabelFor(target);
        l.setToolTipText(target.getToolTipText());
        return l;
    }

    /** Adds a titled block under the common fields; a growing block takes the remaining height. */
    final void addToForm(JComponent block, boolean grows) {
        GridBagConstraints g = new GridBagConstraints();
        g.gridx = 0;
        g.gridy = row++;
        g.fill = GridBagConstraints.BOTH;
        g.weightx = 1;
        g.weighty = grows ? 1 : 0;
        form.add(block, g);
    }

    static JComponent titled(String title, JComponent content) {
        JPanel p = new JPanel(new BorderLayout());
        p.setBorder(BorderFactory.createTitledBorder(title));
        p.add(content instanceof JTextArea ? new JScrollPane(content) : content, BorderLayout.CENTER);
        return p;
    }

    @Override
    public void configure(TestElement el) {
        super.configure(el);
        host.setText(el.getPropertyAsString(StampedeSampler.HOST));
        port.setText(el.getPropertyAsString(StampedeSampler.PORT));
        connectTimeout.setText(el.getPropertyAsString(StampedeSampler.CONNECT_TIMEOUT));
        responseTimeout.setText(el.getPropertyAsString(StampedeSampler.RESPONSE_TIMEOUT));
        bytesKept.setText(el.getPropertyAsString(StampedeSampler.RESPONSE_BYTES_KEPT));
        keepAlive.setSelected(el.getPropertyAsBoolean(StampedeSampler.KEEP_ALIVE, true));
    }

    @Override
    public void modifyTestElement(TestElement el) {
        configureTestElement(el);
        el.setProperty(StampedeSampler.HOST, host.getText());
        el.setProperty(StampedeSampler.PORT, port.getText());
        el.setProperty(StampedeSampler.CONNECT_TIMEOUT, connectTimeout.getText());
        el.setProperty(StampedeSampler.RESPONSE_TIMEOUT, responseTimeout.getText());
        el.setProperty(StampedeSampler.RESPONSE_BYTES_KEPT, bytesKept.getText());
        el.setProperty(new BooleanProperty(StampedeSampler.KEEP_ALIVE, keepAlive.isSelected()));
    }

    @Override
    public void clearGui() {
        super.clearGui();
        host.setText("");
        port.setText(Integer.toString(StampedeSampler.DEFAULT_PORT));
        connectTimeout.setText(Integer.toString(StampedeSampler.DEFAULT_CONNECT_TIMEOUT));
        responseTimeout.setText(Integer.toString(StampedeSampler.DEFAULT_RESPONSE_TIMEOUT));
        bytesKept.setText(Integer.toString(StampedeSampler.DEFAULT_RESPONSE_BYTES_KEPT));
        keepAlive.setSelected(true);
    }
}
