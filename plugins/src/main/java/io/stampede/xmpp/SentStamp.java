/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.xmpp;

import io.stampede.engine.xmpp.XmlElement;

/**
 * The sender's clock in a message, so the receiving user's sample measures delivery end to end: an extension element
 * {@code <sent xmlns='urn:io.stampede:sent' us='…'/>} with the wall-clock time of the send in microseconds. Between
 * injectors the clocks must agree (NTP) for the figure to mean anything.
 */
final class SentStamp {
    static final String NS = "urn:io.stampede:sent";

    private SentStamp() {
    }

    static String element(long epochMicros) {
        return "<sent xmlns='" + NS + "' us='" + epochMicros + "'/>";
    }

    /** The stamp's time in epoch microseconds, or -1 when the stanza carries none. */
    static long of(XmlElement stanza) {
        XmlElement s = stanza.child("sent", NS);
        if (s == null) {
            return -1;
        }
        try {
            return Long.parseLong(String.valueOf(s.attr("us")));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    static long nowMicros() {
        java.time.Instant now = java.time.Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }
}
