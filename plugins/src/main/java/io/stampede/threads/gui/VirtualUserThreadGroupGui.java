/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.threads.gui;

import io.stampede.names.PluginNames;
import io.stampede.threads.VirtualUserThreadGroup;
import org.apache.jmeter.control.LoopController;
import org.apache.jmeter.testelement.TestElement;
import org.apache.jmeter.testelement.property.JMeterProperty;
import org.apache.jmeter.threads.AbstractThreadGroup;
import org.apache.jmeter.threads.gui.AbstractThreadGroupGui;

import javax.swing.BorderFactory;
import javax.swing.JCheckBox;
import javax.swing.JLabel;
import javax.swing.JPanel;
import javax.swing.JTextField;
import java.awt.BorderLayout;
import java.awt.GridBagConstraints;
import java.awt.GridBagLayout;
import java.awt.Insets;

/**
 * Editor of the {@link VirtualUserThreadGroup}, under Add &gt; Threads. JMeter's superclass supplies the name,
 * comments and "Action to be taken after a Sampler error"; this panel adds the user population and its schedule.
 */
public class VirtualUserThreadGroupGui extends AbstractThreadGroupGui {
    private static final long serialVersionUID = 1L;

    private final JTextField users = field("Number of virtual users (ThreadGroup.num_threads). Each is a JMeter "
            + "thread with its own variables, cookies and extractors, run on a Java virtual thread (Java 21+).");
    private final JTextField rampUp = field("Seconds over which the users start, evenly spaced "
            + "(ThreadGroup.ramp_time); 0 starts them all at once.");
    private final JTextField hold = field("Seconds every user keeps running after the ramp-up ends "
            + "(VirtualUserThreadGroup.hold); users then stop after their current sample. 0: no time limit, users "
            + "stop after their loops.");
    private final JTextField loops = field("Iterations of the plan per user (LoopController.loops); -1 repeats "
            + "until the hold time ends or the test is stopped.");
    private final JTextField delay = field("Seconds to wait before the first user starts (ThreadGroup.delay).");
    private final JCheckBox sameUser = new JCheckBox("Same user on each iteration");

    public VirtualUserThreadGroupGui() {
        sameUser.setToolTipText("Checked: a user keeps its cookies, cache and connections across iterations, like "
                + "a returning browser (ThreadGroup.same_user_on_next_iteration). Unchecked: each iteration is a "
                + "new user.");
        JPanel form = new JPanel(new GridBagLayout());
        form.setBorder(BorderFactory.createTitledBorder("Virtual users (Java 21+ virtual threads)"));
        row(form, 0, "Users:", users);
        row(form, 1, "Ramp-up (s):", rampUp);
        row(form, 2, "Hold after ramp-up (s):", hold);
        row(form, 3, "Loops per user (-1 = until hold ends):", loops);
        row(form, 4, "Delay before start (s):", delay);
        GridBagConstraints c = constraints(0, 5);
        c.gridwidth = 2;
        form.add(sameUser, c);
        add(form, BorderLayout.CENTER);
        clearValues();
    }

    private static JTextField field(String tip) {
        JTextField f = new JTextField(10);
        f.setToolTipText(tip);
        return f;
    }

    private static void row(JPanel form, int y, String text, JTextField field) {
        JLabel label = new JLabel(text);
        label.setLabelFor(field);
        label.setToolTipText(field.getToolTipText());
        form.add(label, constraints(0, y));
        GridBagConstraints c = constraints(1, y);
        c.weightx = 1;
        c.fill = GridBagConstraints.HORIZONTAL;
        form.add(field, c);
    }

    private static GridBagConstraints constraints(int x, int y) {
        GridBagConstraints c = new GridBagConstraints();
        c.gridx = x;
        c.gridy = y;
        c.anchor = GridBagConstraints.WEST;
        c.insets = new Insets(2, 4, 2, 4);
        return c;
    }

    @Override
    public String getLabelResource() {
        return "stampede_virtual_user_thread_group";
    }

    /** Our own label: JMeter's resource bundle does not know our key. */
    @Override
    public String getStaticLabel() {
        return VirtualUserThreadGroup.DISPLAY_NAME;
    }

    @Override
    public TestElement createTestElement() {
        VirtualUserThreadGroup g = new VirtualUserThreadGroup();
        modifyTestElement(g);
        return g;
    }

    @Override
    public void modifyTestElement(TestElement el) {
        super.modifyTestElement(el);
        el.setProperty(AbstractThreadGroup.NUM_THREADS, users.getText().trim());
        el.setProperty(PluginNames.USERS_RAMP_UP, rampUp.getText().trim());
        el.setProperty(PluginNames.USERS_HOLD, hold.getText().trim());
        el.setProperty(PluginNames.USERS_DELAY, delay.getText().trim());
        el.setProperty(AbstractThreadGroup.IS_SAME_USER_ON_NEXT_ITERATION, sameUser.isSelected());
        if (el instanceof VirtualUserThreadGroup g) {
            g.setLoops(loops.getText().trim());
        }
    }

    @Override
    public void configure(TestElement el) {
        super.configure(el);
        users.setText(el.getPropertyAsString(AbstractThreadGroup.NUM_THREADS));
        rampUp.setText(el.getPropertyAsString(PluginNames.USERS_RAMP_UP));
        hold.setText(el.getPropertyAsString(PluginNames.USERS_HOLD));
        delay.setText(el.getPropertyAsString(PluginNames.USERS_DELAY));
        sameUser.setSelected(el.getPropertyAsBoolean(AbstractThreadGroup.IS_SAME_USER_ON_NEXT_ITERATION, true));
        JMeterProperty main = el.getProperty(AbstractThreadGroup.MAIN_CONTROLLER);
        Object controller = main == null ? null : main.getObjectValue();
        loops.setText(controller instanceof LoopController lc
                ? lc.getPropertyAsString(LoopController.LOOPS) : "-1");
    }

    @Override
    public void clearGui() {
        super.clearGui();
        clearValues();
    }

    private void clearValues() {
        // clearGui runs from the superclass constructor, before our fields exist.
        if (users == null) {
            return;
        }
        users.setText("1000");
        rampUp.setText("60");
        hold.setText("300");
        loops.setText("-1");
        delay.setText("0");
        sameUser.setSelected(true);
    }
}
