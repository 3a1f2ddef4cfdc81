/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.xmpp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** Where a session's stanzas go, and how those it could not keep are counted. */
class StanzaWaitsTest {
    private static StanzaWaits waits(int limit, Set<String> keep) {
        return new StanzaWaits(new XmppSettings("127.0.0.1", 5222, "stampede.test", "user1", "pw1", "r",
                XmppSettings.StartTls.OFF, XmppSettings.SaslMechanism.PLAIN, false, 1000, limit, keep));
    }

    private static XmlElement stanza(String name, String id) {
        return new XmlElement(name, "jabber:client", new String[] {"id", id}, List.of(), null);
    }

    @Test
    void stanzasPushedOutOfTheFullInboxAreReportedOnceApartFromThoseOfAKindItDoesNotKeep() {
        StanzaWaits w = waits(2, Set.of("message", "iq"));
        w.deliver(stanza("message", "m1"), 1);
        w.deliver(stanza("presence", "p1"), 2);
        w.deliver(stanza("message", "m2"), 3);
        assertNull(w.takeOverflow(), "two kept, none lost yet");
        w.deliver(stanza("message", "m3"), 4); // pushes m1 out
        w.deliver(stanza("presence", "p2"), 5);
        w.deliver(stanza("iq", "i1"), 6); // pushes m2 out
        assertArrayEquals(new int[] {2, 2}, w.takeOverflow(), "two stanzas lost, both messages");
        assertNull(w.takeOverflow(), "reported once");
        w.deliver(stanza("message", "m4"), 7); // pushes m3 out
        w.deliver(stanza("message", "m5"), 8); // pushes i1 out
        assertArrayEquals(new int[] {2, 1}, w.takeOverflow(), "two more, one a message");
        assertEquals(2, w.notKept(), "the presences: not a kind this inbox keeps, not lost from it");
        CompletableFuture<Received> f = new CompletableFuture<>();
        assertTrue(w.fromInbox(e -> "m4".equals(e.attr("id")), f));
        assertEquals("m4", f.join().stanza().attr("id"), "the newest two are the ones kept");
    }

    @Test
    void aStanzaAWaitTakesIsNeitherKeptNorLost() {
        StanzaWaits w = waits(1, Set.of());
        CompletableFuture<Received> f = new CompletableFuture<>();
        w.add(e -> e.name().equals("message"), f, 0);
        w.deliver(stanza("message", "m1"), 1);
        w.deliver(stanza("presence", "p1"), 2);
        assertEquals("m1", f.join().stanza().attr("id"));
        assertEquals(1, w.inboxSize());
        assertNull(w.takeOverflow());
        assertEquals(0, w.notKept());
    }
}
