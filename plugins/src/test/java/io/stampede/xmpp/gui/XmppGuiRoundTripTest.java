/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.xmpp.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.xmpp.XmppIqSampler;
import io.stampede.xmpp.XmppLoginSampler;
import io.stampede.xmpp.XmppLogoutSampler;
import io.stampede.xmpp.XmppSendSampler;
import io.stampede.xmpp.XmppWaitSampler;
import java.util.List;
import java.util.Map;
import org.apache.jmeter.gui.util.MenuFactory;
import org.apache.jmeter.testelement.TestElement;
import org.apache.jmeter.testelement.property.BooleanProperty;
import org.junit.jupiter.api.Test;

/** Each XMPP panel saves what it shows and reopens it identically, and fits a 1024-pixel-wide screen. */
class XmppGuiRoundTripTest {

    private static void roundTrips(XmppPanel gui, TestElement in, Map<String, String> values, List<String> checks) {
        in.setName("my " + gui.getStaticLabel());
        values.forEach(in::setProperty);
        checks.forEach(c -> in.setProperty(new BooleanProperty(c, true)));
        gui.configure(in);
        TestElement out = gui.createTestElement();
        values.forEach((name, value) -> assertEquals(value, out.getPropertyAsString(name), name));
        for (String c : checks) {
            assertInstanceOf(BooleanProperty.class, out.getProperty(c), c + " is saved as a boolProp");
            assertEquals("true", out.getPropertyAsString(c), c);
        }
        assertEquals(in.getName(), out.getName());
        assertEquals(in.getClass().getName(), out.getPropertyAsString(TestElement.TEST_CLASS));
        assertEquals(gui.getClass().getName(), out.getPropertyAsString(TestElement.GUI_CLASS));
        assertTrue(gui.getMenuCategories().contains(MenuFactory.SAMPLERS));
        assertTrue(gui.getPreferredSize().width <= 1024, gui.getStaticLabel() + " is "
                + gui.getPreferredSize().width + " px wide");
    }

    @Test
    void loginPanel() {
        roundTrips(new XmppLoginGui(), new XmppLoginSampler(), Map.ofEntries(
                Map.entry(XmppLoginSampler.HOST, "${__P(host,127.0.0.1)}"), Map.entry(XmppLoginSampler.PORT, "5223"),
                Map.entry(XmppLoginSampler.DOMAIN, "example.org"), Map.entry(XmppLoginSampler.USER, "u{n}"),
                Map.entry(XmppLoginSampler.PASSWORD, "secret{n}"), Map.entry(XmppLoginSampler.RESOURCE, "r{n}"),
                Map.entry(XmppLoginSampler.STARTTLS, "required"), Map.entry(XmppLoginSampler.MECHANISM, "plain"),
                Map.entry(XmppLoginSampler.CONNECT_TIMEOUT, "1234"),
                Map.entry(XmppLoginSampler.LOGIN_TIMEOUT, "4321"), Map.entry(XmppLoginSampler.INBOX, "7"),
                Map.entry(XmppLoginSampler.INBOX_KEEP, "message"), Map.entry(XmppLoginSampler.SESSIONS, "1000"),
                Map.entry(XmppLoginSampler.PACING, "400000"), Map.entry(XmppLoginSampler.RAMP, "${ramp}"),
                Map.entry(XmppLoginSampler.MAX_TURNS, "${turns}"),
                Map.entry(XmppLoginSampler.CONCURRENT_LOGINS, "${concurrent_logins}"),
                Map.entry(XmppLoginSampler.TRANSPORT, "websocket"),
                Map.entry(XmppLoginSampler.WEBSOCKET_URL, "wss://${host}:5443/ws")),
                List.of(XmppLoginSampler.TRUST_ALL));
    }

    @Test
    void sendPanel() {
        roundTrips(new XmppSendGui(), new XmppSendSampler(), Map.of(XmppSendSampler.KIND, "presence",
                XmppSendSampler.TO, "{peer}", XmppSendSampler.BODY, "hi ${n}", XmppSendSampler.MESSAGE_TYPE, "normal",
                XmppSendSampler.PRESENCE_TYPE, "unavailable", XmppSendSampler.SHOW, "dnd", XmppSendSampler.STATUS,
                "busy", XmppSendSampler.RAW, "<message to='a@b'><body>x</body></message>"),
                List.of(XmppSendSampler.STAMP));
    }

    @Test
    void iqWaitAndDisconnectPanels() {
        roundTrips(new XmppIqGui(), new XmppIqSampler(), Map.of(XmppIqSampler.TYPE, "set", XmppIqSampler.TO,
                "example.org", XmppIqSampler.TIMEOUT, "2000", XmppIqSampler.PAYLOAD,
                "<query xmlns='jabber:iq:roster'/>"), List.of());
        roundTrips(new XmppWaitGui(), new XmppWaitSampler(), Map.of(XmppWaitSampler.STANZA, "presence",
                XmppWaitSampler.FROM, "user2@", XmppWaitSampler.CONTAINS, "<away", XmppWaitSampler.TIMEOUT, "0"),
                List.of(XmppWaitSampler.OWED));
        roundTrips(new XmppLogoutGui(), new XmppLogoutSampler(), Map.of(XmppLogoutSampler.TIMEOUT, "9000"),
                List.of());
    }
}
