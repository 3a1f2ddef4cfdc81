/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.xmpp.gui;

import org.apache.jmeter.samplers.gui.AbstractSamplerGui;
import org.apache.jmeter.testelement.TestElement;

import java.awt.BorderLayout;
import java.awt.GridBagConstraints;
import java.awt.GridBagLayout;
import java.awt.Insets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.swing.JCheckBox;
import javax.swing.JComboBox;
import javax.swing.JComponent;
import javax.swing.JLabel;
import javax.swing.JPanel;
import javax.swing.JScrollPane;
import javax.swing.JTextArea;
import javax.swing.JTextField;
import javax.swing.text.JTextComponent;

/**
 * The XMPP elements' panels: a column of labelled fields, each bound to one property, with a tooltip that says what
 * it does (wrapped to fit a 1024-pixel screen). Choices are editable so a field can hold a JMeter variable.
 */
public abstract class XmppPanel extends AbstractSamplerGui {
    private static final long serialVersionUID = 1L;
    private static final int TOOLTIP_WIDTH_PX = 360;

    /** One field: a text (columns > 0), a text area (columns 0), a choice (choices set) or a check box (check). */
    record Field(String property, String label, String tooltip, String dflt, List<String> choices, int columns,
                 boolean check) {
        static Field text(String property, String label, String dflt, int columns, String tooltip) {
            return new Field(property, label, tooltip, dflt, null, columns, false);
        }

        static Field area(String property, String label, String tooltip) {
            return new Field(property, label, tooltip, "", null, 0, false);
        }

        static Field choice(String property, String label, String dflt, List<String> choices, String tooltip) {
            return new Field(property, label, tooltip, dflt, choices, 0, false);
        }

        static Field check(String property, String label, boolean dflt, String tooltip) {
            return new Field(property, label, tooltip, Boolean.toString(dflt), null, 0, true);
        }
    }

    private final transient Map<Field, JComponent> inputs = new LinkedHashMap<>();

    XmppPanel(List<Field> fields) {
        setLayout(new BorderLayout(0, 5));
        setBorder(makeBorder());
        add(makeTitlePanel(), BorderLayout.NORTH);
        JPanel form = new JPanel(new GridBagLayout());
        GridBagConstraints c = new GridBagConstraints();
        c.insets = new Insets(2, 2, 2, 6);
        c.anchor = GridBagConstraints.WEST;
        int row = 0;
        for (Field f : fields) {
            JComponent input = input(f);
            String tip = "<html><body style='width:" + TOOLTIP_WIDTH_PX + "px'>" + f.tooltip() + "<br><i>"
                    + f.property() + "</i></body></html>";
            input.setToolTipText(tip);
            inputs.put(f, input);
            c.gridy = row++;
            c.gridx = 0;
            c.weightx = 0;
            c.fill = GridBagConstraints.NONE;
            c.anchor = f.columns() == 0 && f.choices() == null && !f.check()
                    ? GridBagConstraints.NORTHWEST : GridBagConstraints.WEST;
            JLabel label = new JLabel(f.check() ? "" : f.label());
            label.setToolTipText(tip);
            form.add(label, c);
            c.gridx = 1;
            c.weightx = 1;
            c.fill = f.columns() == 0 && f.choices() == null && !f.check()
                    ? GridBagConstraints.BOTH : GridBagConstraints.NONE;
            c.weighty = c.fill == GridBagConstraints.BOTH ? 1 : 0;
            form.add(f.columns() == 0 && f.choices() == null && !f.check() ? new JScrollPane(input) : input, c);
            c.weighty = 0;
        }
        add(form, BorderLayout.CENTER);
    }

    private static JComponent input(Field f) {
        if (f.check()) {
            return new JCheckBox(f.label());
        }
        if (f.choices() != null) {
            JComboBox<String> box = new JComboBox<>(f.choices().toArray(new String[0]));
            box.setEditable(true);
            return box;
        }
        if (f.columns() > 0) {
            return new JTextField(f.columns());
        }
        JTextArea area = new JTextArea(5, 50);
        area.setLineWrap(true);
        return area;
    }

    /** The element this panel edits, new. */
    abstract TestElement newElement();

    @Override
    public String getLabelResource() {
        return getClass().getSimpleName();
    }

    @Override
    public TestElement createTestElement() {
        TestElement el = newElement();
        modifyTestElement(el);
        return el;
    }

    @Override
    public void configure(TestElement el) {
        super.configure(el);
        inputs.forEach((f, input) -> set(input, el.getPropertyAsString(f.property(), f.dflt())));
    }

    @Override
    public void modifyTestElement(TestElement el) {
        configureTestElement(el);
        inputs.forEach((f, input) -> {
            if (input instanceof JCheckBox box) {
                el.setProperty(f.property(), box.isSelected());
            } else {
                el.setProperty(f.property(), get(input));
            }
        });
    }

    @Override
    public void clearGui() {
        super.clearGui();
        inputs.forEach((f, input) -> set(input, f.dflt()));
    }

    private static void set(JComponent input, String value) {
        if (input instanceof JCheckBox box) {
            box.setSelected(Boolean.parseBoolean(value));
        } else if (input instanceof JComboBox<?> box) {
            box.setSelectedItem(value);
        } else {
            ((JTextComponent) input).setText(value);
        }
    }

    private static String get(JComponent input) {
        if (input instanceof JComboBox<?> box) {
            Object v = box.getEditor().getItem();
            return v == null ? "" : v.toString();
        }
        return ((JTextComponent) input).getText();
    }
}
