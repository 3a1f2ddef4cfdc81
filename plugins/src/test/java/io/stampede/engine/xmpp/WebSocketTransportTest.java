/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.xmpp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class WebSocketTransportTest {

    @Test
    void aStanzaWithoutItsNamespaceGetsTheClientsOneAndNothingElseChanges() {
        assertEquals("<iq xmlns='jabber:client' type='set' id='bind_1'><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'/>"
                + "</iq>", WebSocketTransport.qualified("<iq type='set' id='bind_1'><bind "
                + "xmlns='urn:ietf:params:xml:ns:xmpp-bind'/></iq>"));
        assertEquals("<presence xmlns='jabber:client'/>", WebSocketTransport.qualified("<presence/>"));
        assertEquals("  <message xmlns='jabber:client'><body>a</body></message>",
                WebSocketTransport.qualified("  <message><body>a</body></message>"));
        String qualified = "<message xmlns='jabber:client' to='a@b'/>";
        assertEquals(qualified, WebSocketTransport.qualified(qualified));
        String sasl = "<auth xmlns='urn:ietf:params:xml:ns:xmpp-sasl' mechanism='PLAIN'>AGEAYg==</auth>";
        assertEquals(sasl, WebSocketTransport.qualified(sasl));
        assertEquals("<messages/>", WebSocketTransport.qualified("<messages/>"));
    }
}
