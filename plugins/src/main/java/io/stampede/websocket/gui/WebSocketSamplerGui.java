/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.websocket.gui;

import io.stampede.websocket.WebSocketSampler;
import org.apache.jmeter.samplers.gui.AbstractSamplerGui;
import org.apache.jmeter.testelement.TestElement;
import org.apache.jmeter.testelement.property.BooleanProperty;

import javax.swing.BorderFactory;
import javax.swing.JCheckBox;
import javax.swing.JComboBox;
import javax.swing.JComponent;
import javax.swing.JLabel;
import javax.swing.JPanel;
import javax.swing.JScrollPane;
import javax.swing.JTextArea;
import javax.swing.JTextField;
import javax.swing.text.JTextComponent;
import java.awt.BorderLayout;
import java.awt.Font;
import java.awt.GridBagConstraints;
import java.awt.GridBagLayout;
import java.awt.Insets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * What the five WebSocket panels share: the session name, and fields bound one to one to the element's properties,
 * each holding the property's string (so ${variables} survive a save) and with a tooltip that names the property.
 * Rows hold two narrow fields or one wide one, so every panel fits beside JMeter's tree in a 1024-pixel window. No
 * Netty class is touched here: JMeter instantiates GUI classes while scanning lib/ext for its menus.
 */
abstract class WebSocketSamplerGui extends AbstractSamplerGui {
    private static final long serialVersionUID = 1L;

    /** A field bound to a property, with the value a new element gets. */
    private record Binding(String property, JComponent field, String dflt) {
    }

    private final List<Binding> bindings = new ArrayList<>();
    private final JPanel form = new JPanel(new GridBagLayout());
    private final String label;
    private final Supplier<WebSocketSampler> factory;
    private int blocks;

    WebSocketSamplerGui(String label, Supplier<WebSocketSampler> factory) {
        this.label = label;
        this.factory = factory;
        setLayout(new BorderLayout(0, 5));
        setBorder(makeBorder());
        add(makeTitlePanel(), BorderLayout.NORTH);
        JPanel top = new JPanel(new BorderLayout());
        top.add(form, BorderLayout.NORTH);
        add(top, BorderLayout.CENTER);
    }

    /** A titled block of rows; {@code rows} are pairs or single wide fields made by the helpers below. */
    final JPanel block(String title) {
        JPanel p = new JPanel(new GridBagLayout());
        p.setBorder(BorderFactory.createTitledBorder(title));
        GridBagConstraints g = new GridBagConstraints();
        g.gridx = 0;
        g.gridy = blocks++;
        g.fill = GridBagConstraints.HORIZONTAL;
        g.weightx = 1;
        form.add(p, g);
        return p;
    }

    final JTextField text(String property, int columns, String dflt, String tip) {
        JTextField f = new JTextField(columns);
        bind(property, f, dflt, tip);
        return f;
    }

    final JTextArea area(String property, int rows, String dflt, String tip) {
        JTextArea a = new JTextArea(rows, 40);
        a.setFont(new Font(Font.MONOSPACED, Font.PLAIN, a.getFont().getSize()));
        bind(property, a, dflt, tip);
        return a;
    }

    final JCheckBox check(String property, String text, boolean dflt, String tip) {
        JCheckBox c = new JCheckBox(text);
        bind(property, c, Boolean.toString(dflt), tip);
        return c;
    }

    /** Editable, so a ${variable} can choose. */
    final JComboBox<String> choice(String property, String[] values, String tip) {
        JComboBox<String> c = new JComboBox<>(values);
        c.setEditable(true);
        bind(property, c, values[0], tip);
        return c;
    }

    private void bind(String property, JComponent field, String dflt, String tip) {
        field.setToolTipText(tip + " (" + property + ")");
        bindings.add(new Binding(property, field, dflt));
    }

    /** A row of two labelled fields. */
    static void row(JPanel p, String l1, JComponent c1, String l2, JComponent c2) {
        GridBagConstraints g = constraints(p);
        p.add(label(l1, c1), g);
        g.fill = GridBagConstraints.HORIZONTAL;
        g.weightx = 1;
        p.add(c1, g);
        g.fill = GridBagConstraints.NONE;
        g.weightx = 0;
        if (c2 != null) {
            p.add(l2 == null ? new JLabel() : label(l2, c2), g);
            g.fill = GridBagConstraints.HORIZONTAL;
            g.weightx = 1;
            p.add(c2, g);
        }
    }

    /** A row whose one field spans the other columns. */
    static void wide(JPanel p, String text, JComponent c) {
        GridBagConstraints g = constraints(p);
        p.add(label(text, c), g);
        g.gridwidth = GridBagConstraints.REMAINDER;
        g.fill = GridBagConstraints.BOTH;
        g.weightx = 1;
        p.add(c instanceof JTextArea ? new JScrollPane(c) : c, g);
    }

    private static GridBagConstraints constraints(JPanel p) {
        GridBagConstraints g = new GridBagConstraints();
        g.gridy = p.getComponentCount();
        g.insets = new Insets(2, 4, 2, 4);
        g.anchor = GridBagConstraints.WEST;
        return g;
    }

    private static JLabel label(String text, JComponent target) {
        JLabel l = new JLabel(text);
        l.setLabelFor(target);
        l.setToolTipText(target.getToolTipText());
        return l;
    }

    /** The session field every panel starts with. */
    final void sessionBlock(String extraLabel, JComponent extra) {
        JPanel p = block("Session");
        row(p, "Session name:", text(WebSocketSampler.SESSION, 12, WebSocketSampler.DEFAULT_SESSION,
                "The thread's session this step works on; samplers with the same name share it"), extraLabel, extra);
    }

    @Override
    public String getLabelResource() {
        return getClass().getSimpleName();
    }

    /** Our own label: JMeter's resource bundle does not know our key. */
    @Override
    public String getStaticLabel() {
        return label;
    }

    @Override
    public TestElement createTestElement() {
        WebSocketSampler s = factory.get();
        modifyTestElement(s);
        return s;
    }

    @Override
    public void configure(TestElement el) {
        super.configure(el);
        for (Binding b : bindings) {
            if (b.field() instanceof JCheckBox c) {
                c.setSelected(el.getPropertyAsBoolean(b.property(), Boolean.parseBoolean(b.dflt())));
            } else if (b.field() instanceof JComboBox<?> c) {
                String v = el.getPropertyAsString(b.property());
                c.setSelectedItem(v.isEmpty() ? b.dflt() : v);
            } else {
                ((JTextComponent) b.field()).setText(el.getPropertyAsString(b.property()));
            }
        }
    }

    @Override
    public void modifyTestElement(TestElement el) {
        configureTestElement(el);
        for (Binding b : bindings) {
            if (b.field() instanceof JCheckBox c) {
                el.setProperty(new BooleanProperty(b.property(), c.isSelected()));
            } else if (b.field() instanceof JComboBox<?> c) {
                Object v = c.getEditor().getItem();
                el.setProperty(b.property(), v == null ? "" : v.toString().trim());
            } else {
                el.setProperty(b.property(), ((JTextComponent) b.field()).getText());
            }
        }
    }

    @Override
    public void clearGui() {
        super.clearGui();
        // Called by the superclass constructor before the fields exist.
        if (bindings == null) {
            return;
        }
        for (Binding b : bindings) {
            if (b.field() instanceof JCheckBox c) {
                c.setSelected(Boolean.parseBoolean(b.dflt()));
            } else if (b.field() instanceof JComboBox<?> c) {
                c.setSelectedItem(b.dflt());
            } else {
                ((JTextComponent) b.field()).setText(b.dflt());
            }
        }
    }
}
