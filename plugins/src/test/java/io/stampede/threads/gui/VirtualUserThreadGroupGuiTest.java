/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.threads.gui;

import io.stampede.names.PluginNames;
import io.stampede.threads.VirtualUserThreadGroup;
import org.apache.jmeter.control.LoopController;
import org.apache.jmeter.gui.util.MenuFactory;
import org.apache.jmeter.testelement.TestElement;
import org.apache.jmeter.threads.AbstractThreadGroup;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the editor shows and saves must reopen identically, under the .jmx names the CLI's plan reader uses. */
class VirtualUserThreadGroupGuiTest {
    @Test
    void roundTripsEverySetting() {
        VirtualUserThreadGroup in = new VirtualUserThreadGroup();
        in.setName("users");
        in.setProperty(AbstractThreadGroup.NUM_THREADS, "${__P(users,2000)}");
        in.setRampUp("100");
        in.setHold("120");
        in.setDelay("3");
        in.setLoops("7");
        in.setIsSameUserOnNextIteration(false);
        in.setProperty(AbstractThreadGroup.ON_SAMPLE_ERROR, AbstractThreadGroup.ON_SAMPLE_ERROR_START_NEXT_LOOP);
        VirtualUserThreadGroupGui gui = new VirtualUserThreadGroupGui();
        gui.configure(in);
        TestElement out = gui.createTestElement();
        for (String p : new String[] {AbstractThreadGroup.NUM_THREADS, PluginNames.USERS_RAMP_UP,
                PluginNames.USERS_HOLD, PluginNames.USERS_DELAY, AbstractThreadGroup.ON_SAMPLE_ERROR}) {
            assertEquals(in.getPropertyAsString(p), out.getPropertyAsString(p), p);
        }
        assertEquals("users", out.getName());
        assertFalse(out.getPropertyAsBoolean(AbstractThreadGroup.IS_SAME_USER_ON_NEXT_ITERATION, true));
        VirtualUserThreadGroup g = assertInstanceOf(VirtualUserThreadGroup.class, out);
        LoopController loops = assertInstanceOf(LoopController.class, g.getSamplerController());
        assertEquals("7", loops.getPropertyAsString(LoopController.LOOPS));
        assertEquals(VirtualUserThreadGroupGui.class.getName(), out.getPropertyAsString(TestElement.GUI_CLASS));
        assertEquals(VirtualUserThreadGroup.DISPLAY_NAME, gui.getStaticLabel());
        assertTrue(gui.getMenuCategories().contains(MenuFactory.THREADS));
    }
}
