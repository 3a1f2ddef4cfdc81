/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.websocket.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.websocket.WebSocketCloseSampler;
import io.stampede.websocket.WebSocketOpenSampler;
import io.stampede.websocket.WebSocketRequestReplySampler;
import io.stampede.websocket.WebSocketSampler;
import io.stampede.websocket.WebSocketSendSampler;
import io.stampede.websocket.WebSocketWaitSampler;
import org.apache.jmeter.testelement.TestElement;
import org.apache.jmeter.testelement.property.BooleanProperty;
import org.apache.jmeter.testelement.property.JMeterProperty;
import org.apache.jmeter.testelement.property.PropertyIterator;
import org.junit.jupiter.api.Test;

import javax.swing.JCheckBox;
import javax.swing.JComboBox;
import javax.swing.JComponent;
import javax.swing.text.JTextComponent;
import java.awt.Component;
import java.awt.Container;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The five WebSocket panels: each property a plan sets comes back from the panel unchanged (variables included),
 * each field's tooltip names its property, and a new element from a panel is the sampler the panel edits.
 */
class WebSocketPanelsTest {

    @Test
    void openPanelRoundTripsEveryProperty() {
        WebSocketOpenSampler in = new WebSocketOpenSampler();
        Map<String, String> props = Map.ofEntries(Map.entry(WebSocketSampler.SESSION, "chat"),
                Map.entry(WebSocketOpenSampler.URL, "wss://${host}:${__P(port,443)}/ws?x=1"),
                Map.entry(WebSocketOpenSampler.HEADERS, "Origin: https://a.test\nX-User: ${user}"),
                Map.entry(WebSocketOpenSampler.SUBPROTOCOLS, "chat, superchat"),
                Map.entry(WebSocketOpenSampler.CONNECT_TIMEOUT, "1234"),
                Map.entry(WebSocketOpenSampler.HANDSHAKE_TIMEOUT, "4321"),
                Map.entry(WebSocketOpenSampler.MAX_MESSAGE_BYTES, "65536"),
                Map.entry(WebSocketOpenSampler.PING_MS, "${__P(ping,30000)}"),
                Map.entry(WebSocketOpenSampler.INBOX, "4"),
                Map.entry(WebSocketOpenSampler.TLS_SNI, "ws.example.test"),
                Map.entry(WebSocketOpenSampler.SOURCE_ADDRESSES, "10.0.0.1-20"),
                Map.entry(WebSocketOpenSampler.SESSIONS_PER_THREAD, "1000"),
                Map.entry(WebSocketOpenSampler.PACING_MS, "10000"));
        roundTrip(in, new WebSocketOpenSamplerGui(), props, List.of(WebSocketOpenSampler.COMPRESSION,
                WebSocketOpenSampler.TLS_TRUST_ALL));
    }

    @Test
    void messagePanelsRoundTripEveryProperty() {
        Map<String, String> message = Map.of(WebSocketSampler.SESSION, "s1", WebSocketSampler.MESSAGE,
                "{\"n\":\"${__counter(TRUE,)}\"}", WebSocketSampler.MESSAGE_TYPE, "text", WebSocketSampler.TIMEOUT,
                "2500");
        Map<String, String> match = Map.of(WebSocketSampler.SESSION, "s1", WebSocketSampler.MATCH, "json",
                WebSocketSampler.MATCH_EXPRESSION, "$.data.id", WebSocketSampler.MATCH_VALUE, "${id}",
                WebSocketSampler.TIMEOUT, "2500");
        roundTrip(new WebSocketSendSampler(), new WebSocketSendSamplerGui(), message, List.of());
        Map<String, String> both = new java.util.HashMap<>(message);
        both.putAll(match);
        roundTrip(new WebSocketRequestReplySampler(), new WebSocketRequestReplySamplerGui(), both,
                List.of(WebSocketSampler.KEEP_UNSOLICITED));
        roundTrip(new WebSocketWaitSampler(), new WebSocketWaitSamplerGui(), match,
                List.of(WebSocketSampler.KEEP_UNSOLICITED));
        roundTrip(new WebSocketCloseSampler(), new WebSocketCloseSamplerGui(), Map.of(WebSocketSampler.SESSION,
                "s1", WebSocketCloseSampler.CLOSE_CODE, "4000", WebSocketCloseSampler.CLOSE_REASON, "bye",
                WebSocketSampler.TIMEOUT, "2500"), List.of());
    }

    private static void roundTrip(WebSocketSampler in, WebSocketSamplerGui gui, Map<String, String> props,
                                  List<String> booleans) {
        in.setName("step");
        props.forEach(in::setProperty);
        booleans.forEach(b -> in.setProperty(new BooleanProperty(b, true)));
        gui.configure(in);
        TestElement out = gui.createTestElement();
        assertEquals(in.getClass(), out.getClass(), "the panel makes the sampler it edits");
        gui.modifyTestElement(out);
        props.forEach((k, v) -> assertEquals(v, out.getPropertyAsString(k), k));
        for (String b : booleans) {
            JMeterProperty p = out.getProperty(b);
            assertInstanceOf(BooleanProperty.class, p, b + " is saved as a boolProp");
            assertEquals("true", p.getStringValue(), b);
        }
        assertEquals("step", out.getName());
        List<String> saved = new ArrayList<>();
        for (PropertyIterator it = out.propertyIterator(); it.hasNext();) {
            String name = it.next().getName();
            if (name.startsWith("websocket.") || name.startsWith("stampede.")) {
                saved.add(name);
            }
        }
        // Every field names its property in its tooltip, and every property saved has its field.
        List<JComponent> fields = new ArrayList<>();
        collect(gui, fields);
        for (String name : saved) {
            assertTrue(fields.stream().anyMatch(f -> String.valueOf(f.getToolTipText()).contains("(" + name + ")")),
                    gui.getStaticLabel() + ": no field's tooltip names " + name);
        }
        assertEquals(saved.size(), fields.size(), gui.getStaticLabel() + ": one field per property " + saved);
    }

    private static void collect(Container c, List<JComponent> out) {
        for (Component child : c.getComponents()) {
            String tip = child instanceof JComponent j ? String.valueOf(j.getToolTipText()) : "";
            if ((child instanceof JTextComponent || child instanceof JCheckBox || child instanceof JComboBox)
                    && (tip.contains("(websocket.") || tip.contains("(stampede."))) {
                out.add((JComponent) child);
            } else if (child instanceof Container inner && !(child instanceof JComboBox)) {
                collect(inner, out);
            }
        }
    }
}
