/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.xmpp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.engine.xmpp.StanzaParser;
import io.stampede.engine.xmpp.XmlElement;
import io.stampede.engine.xmpp.XmppException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/** The XMPP elements' own rules: the stanzas they write, the conditions they wait for, the users they log in as. */
class XmppElementsTest {

    private static XmlElement parse(String stanza) throws XmppException {
        List<XmlElement> out = new ArrayList<>();
        StanzaParser p = new StanzaParser(new StanzaParser.Sink() {
            @Override
            public void streamOpened(XmlElement header) {
                // the stream's header: nothing to check
            }

            @Override
            public void element(XmlElement e) {
                out.add(e);
            }

            @Override
            public void streamClosed() {
                // not reached
            }
        });
        p.feed(ByteBuffer.wrap(("<stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams'>"
                + stanza).getBytes(StandardCharsets.UTF_8)));
        return out.get(0);
    }

    @Test
    void aMessageIsEscapedAndCarriesItsSendTime() throws Exception {
        XmppSendSampler s = new XmppSendSampler();
        s.setProperty(XmppSendSampler.KIND, "message");
        s.setProperty(XmppSendSampler.TO, "user2@example.org/r");
        s.setProperty(XmppSendSampler.BODY, "a < b & 'c'");
        long before = SentStamp.nowMicros();
        XmlElement m = parse(s.stanza(null));
        assertEquals("user2@example.org/r", m.attr("to"));
        assertEquals("chat", m.attr("type"));
        assertEquals("a < b & 'c'", m.childText("body"));
        long stamp = SentStamp.of(m);
        assertTrue(stamp >= before && stamp <= SentStamp.nowMicros(), "send time " + stamp);
    }

    @Test
    void aPresenceHasShowAndStatusOnlyWhenGiven() throws Exception {
        XmppSendSampler s = new XmppSendSampler();
        s.setProperty(XmppSendSampler.KIND, "presence");
        assertEquals("<presence/>", s.stanza(null));
        s.setProperty(XmppSendSampler.SHOW, "away");
        s.setProperty(XmppSendSampler.STATUS, "out & about");
        assertEquals("<presence><show>away</show><status>out &amp; about</status></presence>", s.stanza(null));
        s.setProperty(XmppSendSampler.PRESENCE_TYPE, "unavailable");
        assertTrue(s.stanza(null).startsWith("<presence type='unavailable'>"));
    }

    @Test
    void badFieldsAreNamedWithTheirFix() {
        XmppSendSampler s = new XmppSendSampler();
        s.setProperty(XmppSendSampler.KIND, "message");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> s.stanza(null));
        assertTrue(e.getMessage().startsWith(XmppSendSampler.TO + " is empty"), e.getMessage());
        s.setProperty(XmppSendSampler.KIND, "fax");
        e = assertThrows(IllegalArgumentException.class, () -> s.stanza(null));
        assertTrue(e.getMessage().startsWith(XmppSendSampler.KIND + " must be message, presence or raw"));
        e = assertThrows(IllegalArgumentException.class, () -> XmppWaitSampler.matcher("mesage", "", ""));
        assertTrue(e.getMessage().startsWith(XmppWaitSampler.STANZA + " must be"), e.getMessage());
        XmppLoginSampler login = new XmppLoginSampler();
        login.setProperty(XmppLoginSampler.HOST, "h");
        login.setProperty(XmppLoginSampler.USER, "u");
        login.setProperty(XmppLoginSampler.STARTTLS, "maybe");
        e = assertThrows(IllegalArgumentException.class, () -> login.settings(1));
        assertEquals(XmppLoginSampler.STARTTLS + " must be one of required, if_offered, off, got 'maybe'", e.getMessage());
    }

    @Test
    void aWaitMatchesByNameSenderAndText() throws Exception {
        XmlElement m = parse("<message from='user7@example.org/stampede'><body>hello</body></message>");
        XmlElement p = parse("<presence from='user7@example.org/stampede'/>");
        Predicate<XmlElement> any = XmppWaitSampler.matcher("any", "", "");
        Predicate<XmlElement> fromUser7 = XmppWaitSampler.matcher("message", "user7@", "hello");
        assertTrue(any.test(m) && any.test(p));
        assertTrue(fromUser7.test(m));
        assertFalse(fromUser7.test(p));
        assertFalse(XmppWaitSampler.matcher("message", "user8@", "").test(m));
        assertFalse(XmppWaitSampler.matcher("message", "", "bye").test(m));
    }

    @Test
    void sessionsAreNumberedOverTheTestAndNamedByTheirNumber() {
        assertEquals(1, XmppLoginSampler.sessionNumber(0, 1, 0));
        assertEquals(3, XmppLoginSampler.sessionNumber(2, 1, 0));
        assertEquals(2006, XmppLoginSampler.sessionNumber(2, 1000, 5));
        XmppLoginSampler login = new XmppLoginSampler();
        login.setProperty(XmppLoginSampler.HOST, "xmpp.example.org");
        login.setProperty(XmppLoginSampler.USER, "user{n}");
        login.setProperty(XmppLoginSampler.PASSWORD, "pw{n}");
        login.setProperty(XmppLoginSampler.INBOX_KEEP, "message, iq");
        var settings = login.settings(2006);
        assertEquals("user2006@xmpp.example.org", settings.bareJid());
        assertEquals("pw2006", settings.password());
        assertTrue(settings.keeps("message") && settings.keeps("iq") && !settings.keeps("presence"));
    }

    @Test
    void theWebSocketTransportTakesAUrlOrAPathOnTheServerAndPort() {
        XmppLoginSampler login = new XmppLoginSampler();
        login.setProperty(XmppLoginSampler.HOST, "xmpp.example.org");
        login.setProperty(XmppLoginSampler.PORT, "5280");
        login.setProperty(XmppLoginSampler.USER, "user{n}");
        assertNull(login.settings(1).webSocket(), "tcp unless told");
        login.setProperty(XmppLoginSampler.TRANSPORT, "websocket");
        login.setProperty(XmppLoginSampler.WEBSOCKET_URL, "/ws");
        var path = login.settings(1);
        assertEquals("ws://xmpp.example.org:5280/ws", path.webSocket().toString());
        assertFalse(path.webSocketTls());
        login.setProperty(XmppLoginSampler.HOST, "");
        login.setProperty(XmppLoginSampler.DOMAIN, "example.org");
        login.setProperty(XmppLoginSampler.WEBSOCKET_URL, "WSS://chat.example.org/xmpp-websocket?x=1");
        var url = login.settings(1);
        assertEquals("wss://chat.example.org:443/xmpp-websocket?x=1", url.webSocket().toString());
        assertEquals("chat.example.org", url.host());
        assertEquals(443, url.port());
        assertTrue(url.webSocketTls());
        assertEquals("user1@example.org", url.bareJid());
        login.setProperty(XmppLoginSampler.WEBSOCKET_URL, "http://chat.example.org/ws");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> login.settings(1));
        assertTrue(e.getMessage().startsWith(XmppLoginSampler.WEBSOCKET_URL + " 'http://chat.example.org/ws' is "
                + "not a WebSocket URL; enter a ws:// or wss:// URL"), e.getMessage());
        login.setProperty(XmppLoginSampler.WEBSOCKET_URL, "/ws");
        e = assertThrows(IllegalArgumentException.class, () -> login.settings(1));
        assertTrue(e.getMessage().startsWith(XmppLoginSampler.HOST + " is empty"), e.getMessage());
        login.setProperty(XmppLoginSampler.WEBSOCKET_URL, "");
        e = assertThrows(IllegalArgumentException.class, () -> login.settings(1));
        assertTrue(e.getMessage().startsWith(XmppLoginSampler.WEBSOCKET_URL + " is empty"), e.getMessage());
        login.setProperty(XmppLoginSampler.TRANSPORT, "bosh");
        e = assertThrows(IllegalArgumentException.class, () -> login.settings(1));
        assertEquals(XmppLoginSampler.TRANSPORT + " must be tcp or websocket, got 'bosh'", e.getMessage());
    }
}
