/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.httprequest.gui;

import io.stampede.httprequest.EngineHttpRequest;
import io.stampede.names.PluginNames;
import org.apache.jmeter.testelement.property.StringProperty;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The panel's one field beyond the stock ones, {@code stampede.protocol}, as the GUI uses it: open the element, then
 * save the panel's fields into it (JMeter clears the element first). Empty writes nothing, so a plan saved from this
 * panel holds what the stock panel saves.
 */
class EngineHttpRequestGuiTest {

    @Test
    void thePanelKeepsTheElementsProtocolSettingWhenItSavesItsFields() {
        EngineHttpRequest e = new EngineHttpRequest();
        e.setName("login");
        e.setDomain("shop.example.test");
        e.setPath("/login");
        e.setProperty(PluginNames.PROTOCOL, "h2");
        EngineHttpRequestGui gui = new EngineHttpRequestGui();
        gui.configure(e);
        gui.modifyTestElement(e);
        assertEquals("h2", e.getPropertyAsString(PluginNames.PROTOCOL));
        assertEquals("/login", e.getPath(), "the panel did save its own fields");
        assertEquals("h2", ((EngineHttpRequest) e.clone()).getPropertyAsString(PluginNames.PROTOCOL),
                "each thread's clone has it");
        EngineHttpRequest plain = new EngineHttpRequest();
        plain.setName("plain");
        gui.configure(plain);
        gui.modifyTestElement(plain);
        assertNull(plain.getProperty(PluginNames.PROTOCOL).getObjectValue(), "empty: no property written");
        assertFalse(plain.getProperty(PluginNames.PROTOCOL) instanceof StringProperty);
    }
}
