/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.xmpp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The SASL step's choices and refusals, each with the condition a sample names. */
class SaslLoginTest {

    private static SaslLogin login(XmppSettings.SaslMechanism asked) {
        return new SaslLogin(new XmppSettings("127.0.0.1", 5222, "example.org", "alice", "secret", "",
                XmppSettings.StartTls.OFF, asked, false, 1000, 0, Set.of()));
    }

    private static XmlElement offer(String... mechanisms) {
        List<XmlElement> children = new ArrayList<>();
        for (String m : mechanisms) {
            children.add(new XmlElement("mechanism", XmppSession.NS_SASL, new String[0], List.of(), m));
        }
        return new XmlElement("mechanisms", XmppSession.NS_SASL, new String[0], children, "");
    }

    @Test
    void autoTakesScramWhenOfferedElsePlain() throws Exception {
        SaslLogin scram = login(XmppSettings.SaslMechanism.AUTO);
        assertTrue(scram.start(offer("PLAIN", "SCRAM-SHA-1")).contains("mechanism='SCRAM-SHA-1'"));
        assertEquals("SCRAM-SHA-1", scram.mechanism());

        SaslLogin plain = login(XmppSettings.SaslMechanism.AUTO);
        String auth = plain.start(offer("PLAIN"));
        String creds = Base64.getEncoder().encodeToString("\0alice\0secret".getBytes(StandardCharsets.UTF_8));
        assertEquals("<auth xmlns='" + XmppSession.NS_SASL + "' mechanism='PLAIN'>" + creds + "</auth>", auth);
        assertEquals("PLAIN", plain.mechanism());
    }

    @Test
    void aMechanismTheServerDoesNotOfferIsRefusedByItsCondition() {
        assertEquals("mechanism-too-weak", assertThrows(SaslFailureException.class,
                () -> login(XmppSettings.SaslMechanism.SCRAM_SHA_1).start(offer("PLAIN"))).condition());
        assertEquals("invalid-mechanism", assertThrows(SaslFailureException.class,
                () -> login(XmppSettings.SaslMechanism.PLAIN).start(offer("SCRAM-SHA-1"))).condition());
        assertEquals("invalid-mechanism", assertThrows(SaslFailureException.class,
                () -> login(XmppSettings.SaslMechanism.AUTO).start(null)).condition());
    }

    @Test
    void aChallengeToPlainAndAnUnprovenScramSuccessFail() throws Exception {
        SaslLogin plain = login(XmppSettings.SaslMechanism.PLAIN);
        plain.start(offer("PLAIN"));
        assertEquals("malformed-request", assertThrows(SaslFailureException.class,
                () -> plain.respond("cj1mYWtl")).condition());

        SaslLogin scram = login(XmppSettings.SaslMechanism.SCRAM_SHA_1);
        scram.start(offer("SCRAM-SHA-1"));
        assertEquals("server-not-verified", assertThrows(SaslFailureException.class,
                () -> scram.succeeded("")).condition());
    }
}
