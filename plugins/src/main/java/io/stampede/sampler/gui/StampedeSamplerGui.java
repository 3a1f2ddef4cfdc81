/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sampler.gui;

import io.stampede.names.PluginNames;
import org.apache.jmeter.samplers.gui.AbstractSamplerGui;
import org.apache.jmeter.testelement.TestElement;
import org.apache.jmeter.testelement.property.BooleanProperty;

import javax.swing.BorderFactory;
import javax.swing.Box;
import javax.swing.JCheckBox;
import javax.swing.JComboBox;
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
 * The fields both Stampede samplers share (target, timeouts, keep-alive, kept bytes, connections and schedule) and the helpers that lay them out.
 * Every field is a plain text field holding the property's string, so ${variables} and functions survive a save.
 * No Netty class is touched here: JMeter instantiates GUI classes while scanning lib/ext for its menus.
 */
abstract class StampedeSamplerGui extends AbstractSamplerGui {
    private static final long serialVersionUID = 1L;

    private final JTextField host = field(20, "Server host name or IP address (stampede.host). Variables allowed.");
    // Wide enough for a property function such as ${__P(port,8080)}, which plans put here.
    private final JTextField port = field(16, "Server port (stampede.port), default 80.");
    private final JTextField connectTimeout = field(7,
            "Milliseconds to wait for a new TCP connection (stampede.connect_timeout), default 5000.");
    private final JTextField responseTimeout = field(7,
            "Milliseconds from sending the request to the complete response (stampede.response_timeout), "
                    + "default 30000.");
    private final JTextField bytesKept = field(9, "How many response body bytes to keep in the result "
            + "(stampede.response_bytes_kept), default 65536, never more than JMeter's "
            + "httpsampler.max_bytes_to_store_per_request when that is set. All bytes are still counted in 'bytes'.");
    private final JCheckBox keepAlive = new JCheckBox("Keep-alive");
    /** Editable, so that a ${variable} can choose the protocol. */
    private final JComboBox<String> protocol = new JComboBox<>(new String[] {"http/1.1", "h2", "h2c"});
    private final JTextField streams = field(4, "HTTP/2 streams in flight per connection (stampede.h2.streams), "
            + "capped by the server's SETTINGS_MAX_CONCURRENT_STREAMS. Requests in flight per thread = connections "
            + "x streams.");
    private final JTextField maxRequests = field(7, "HTTP/2: streams one connection carries before a graceful "
            + "reconnect (stampede.h2.max_requests); empty or 0 for no limit (the server's own limit still applies).");
    private final JTextField ping = field(7, "HTTP/2: a PING after this many ms without a frame from the server "
            + "(stampede.h2.ping_ms), 100 or more; the connection is closed as dead when another interval passes "
            + "without one. Empty or 0: no PINGs.");
    private final JTextField connections = field(6, "Connections one JMeter thread keeps busy "
            + "(stampede.connections_per_thread), default 1. Above 1 each sample returns the next completed "
            + "response and sends a new request on that connection: for requests that do not depend on each other.");
    private final JTextField pacing = field(7, "Milliseconds between two requests on one connection "
            + "(stampede.pacing_ms), empty or 0 for none: 'every online user sends one request every T'.");
    private final JTextField targetRate = field(7, "Requests per second of this sampler per JMeter thread, over "
            + "all its connections (stampede.target_rate), empty for none. Open model: requests follow the "
            + "schedule whatever the response time; latency from the intended send time goes to "
            + "stampede_corrected_us.");
    private final JTextField pipeline = field(4, "HTTP/1.1 pipelining (stampede.pipeline_depth): requests written "
            + "ahead on each connection before their responses arrive, default 1 (none). Needs keep-alive.");
    private final JCheckBox trustAll = new JCheckBox("Trust all certificates");
    private final JTextField sni = field(20, "TLS server name (stampede.tls.sni) sent as SNI and checked against "
            + "the certificate; empty: the host (an IP address sends no SNI).");
    private final JTextField sources = field(30, "Local addresses to connect from, taken round-robin "
            + "(stampede.source_addresses): addresses, ranges (10.0.0.1-20) or CIDR blocks (10.0.1.0/28), "
            + "separated by commas. Empty: the kernel chooses.");

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
        protocol.setEditable(true);
        protocol.setToolTipText("stampede.protocol: http/1.1 (default); h2 = HTTP/2 over TLS with ALPN, HTTP/1.1 "
                + "if the server does not offer h2; h2c = HTTP/2 over cleartext (prior knowledge).");
        addRow(server, 1, "Protocol:", protocol, "HTTP/2 streams:", streams);
        addRow(server, 2, "Requests/conn.:", maxRequests, "PING after (ms):", ping);
        JPanel options = new JPanel(new GridBagLayout());
        options.setBorder(BorderFactory.createTitledBorder("Connection and response"));
        addRow(options, 0, "Connect timeout (ms):", connectTimeout, "Response timeout (ms):", responseTimeout);
        addRow(options, 1, "Response bytes kept:", bytesKept, null, keepAlive);
        JPanel scale = new JPanel(new GridBagLayout());
        scale.setBorder(BorderFactory.createTitledBorder("Connections and schedule"));
        addRow(scale, 0, "Connections per thread:", connections, "Pacing per connection (ms):", pacing);
        addRow(scale, 1, "Pipelining depth:", pipeline, "Target rate (req/s):", targetRate);
        addWideRow(scale, 2, "Source addresses:", sources);
        addToForm(server, false);
        addToForm(options, false);
        addToForm(scale, false);
        trustAll.setToolTipText("Accept any server certificate, self-signed included, without checking the host "
                + "name (stampede.tls.trust_all): for test rigs only.");
        JPanel tlsPanel = new JPanel(new GridBagLayout());
        tlsPanel.setBorder(BorderFactory.createTitledBorder("TLS (when the request goes over https)"));
        addRow(tlsPanel, 0, "Server name (SNI):", sni, null, trustAll);
        addToForm(tlsPanel, false);
        add(form, BorderLayout.CENTER);
        clearGui();
    }

    static JTextField field(int columns, String tip) {
        JTextField f = new JTextField(columns);
        f.setToolTipText(tip);
        return f;
    }

    /** A text area of a few rows: it grows with the window; its block must fit a 1024-pixel-wide window. */
    static JTextArea area(String tip) {
        JTextArea a = new JTextArea(6, 48);
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

    /**
     * A row whose one field spans the other three columns, so a wide field does not widen the first column (and
     * with it the panel, which must fit beside JMeter's tree in a 1024-pixel window).
     */
    private static void addWideRow(JPanel panel, int y, String text, JComponent c) {
        GridBagConstraints g = new GridBagConstraints();
        g.gridy = y;
        g.insets = new Insets(2, 4, 2, 4);
        g.anchor = GridBagConstraints.WEST;
        panel.add(label(text, c), g);
        g.gridwidth = GridBagConstraints.REMAINDER;
        g.fill = GridBagConstraints.HORIZONTAL;
        g.weightx = 1;
        panel.add(c, g);
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
        host.setText(el.getPropertyAsString(PluginNames.HOST));
        port.setText(el.getPropertyAsString(PluginNames.PORT));
        connectTimeout.setText(el.getPropertyAsString(PluginNames.CONNECT_TIMEOUT));
        responseTimeout.setText(el.getPropertyAsString(PluginNames.RESPONSE_TIMEOUT));
        bytesKept.setText(el.getPropertyAsString(PluginNames.RESPONSE_BYTES_KEPT));
        keepAlive.setSelected(el.getPropertyAsBoolean(PluginNames.KEEP_ALIVE, true));
        String p = el.getPropertyAsString(PluginNames.PROTOCOL);
        protocol.setSelectedItem(p.isEmpty() ? "http/1.1" : p);
        streams.setText(el.getPropertyAsString(PluginNames.H2_STREAMS));
        maxRequests.setText(el.getPropertyAsString(PluginNames.H2_MAX_REQUESTS));
        ping.setText(el.getPropertyAsString(PluginNames.H2_PING_MS));
        connections.setText(el.getPropertyAsString(PluginNames.CONNECTIONS_PER_THREAD));
        pacing.setText(el.getPropertyAsString(PluginNames.PACING_MS));
        targetRate.setText(el.getPropertyAsString(PluginNames.TARGET_RATE));
        sources.setText(el.getPropertyAsString(PluginNames.SOURCE_ADDRESSES));
        pipeline.setText(el.getPropertyAsString(PluginNames.PIPELINE_DEPTH));
        sni.setText(el.getPropertyAsString(PluginNames.TLS_SNI));
        trustAll.setSelected(el.getPropertyAsBoolean(PluginNames.TLS_TRUST_ALL, false));
    }

    @Override
    public void modifyTestElement(TestElement el) {
        configureTestElement(el);
        el.setProperty(PluginNames.HOST, host.getText());
        el.setProperty(PluginNames.PORT, port.getText());
        el.setProperty(PluginNames.CONNECT_TIMEOUT, connectTimeout.getText());
        el.setProperty(PluginNames.RESPONSE_TIMEOUT, responseTimeout.getText());
        el.setProperty(PluginNames.RESPONSE_BYTES_KEPT, bytesKept.getText());
        el.setProperty(new BooleanProperty(PluginNames.KEEP_ALIVE, keepAlive.isSelected()));
        Object p = protocol.getEditor().getItem();
        el.setProperty(PluginNames.PROTOCOL, p == null ? "" : p.toString().trim());
        el.setProperty(PluginNames.H2_STREAMS, streams.getText());
        el.setProperty(PluginNames.H2_MAX_REQUESTS, maxRequests.getText());
        el.setProperty(PluginNames.H2_PING_MS, ping.getText());
        el.setProperty(PluginNames.CONNECTIONS_PER_THREAD, connections.getText());
        el.setProperty(PluginNames.PACING_MS, pacing.getText());
        el.setProperty(PluginNames.TARGET_RATE, targetRate.getText());
        el.setProperty(PluginNames.SOURCE_ADDRESSES, sources.getText());
        el.setProperty(PluginNames.PIPELINE_DEPTH, pipeline.getText());
        el.setProperty(PluginNames.TLS_SNI, sni.getText());
        el.setProperty(new BooleanProperty(PluginNames.TLS_TRUST_ALL, trustAll.isSelected()));
    }

    @Override
    public void clearGui() {
        super.clearGui();
        host.setText("");
        port.setText(Integer.toString(PluginNames.DEFAULT_PORT));
        connectTimeout.setText(Integer.toString(PluginNames.DEFAULT_CONNECT_TIMEOUT));
        responseTimeout.setText(Integer.toString(PluginNames.DEFAULT_RESPONSE_TIMEOUT));
        bytesKept.setText(Integer.toString(PluginNames.DEFAULT_RESPONSE_BYTES_KEPT));
        keepAlive.setSelected(true);
        protocol.setSelectedItem("http/1.1");
        streams.setText("1");
        maxRequests.setText("");
        ping.setText("");
        connections.setText("1");
        pacing.setText("");
        targetRate.setText("");
        sources.setText("");
        pipeline.setText("1");
        sni.setText("");
        trustAll.setSelected(false);
    }
}
