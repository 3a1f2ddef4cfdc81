/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * What h2 over TLS names when the port answers in cleartext, read from Netty's NotSslRecordException message (a hex
 * dump of the reply on the JDK's TLS; no bytes on BoringSSL).
 */
class CleartextReplyTest {

    @Test
    void quotesATextReplysFirstLineAndNamesBinaryOnes() {
        // nginx's HTTP/1.1 port answering a ClientHello, as Netty 4.2 reports it
        assertEquals("'HTTP/1.1 400 Bad Request'", Connector.cleartextReply(
                "not an SSL/TLS record: 485454502f312e31203430302042616420526571756573740d0a5365727665723a"));
        // nginx's h2c port: its SETTINGS frame
        assertEquals("binary data, e.g. an HTTP/2 frame in cleartext", Connector.cleartextReply(
                "not an SSL/TLS record: 000012040000000000000300000080"));
        // BoringSSL's engine (the default on Linux x86-64) says only this
        assertEquals("data that is not TLS", Connector.cleartextReply("not an SSL/TLS record"));
        assertEquals("data that is not TLS", Connector.cleartextReply("not an SSL/TLS record: zz"));
        assertEquals("data that is not TLS", Connector.cleartextReply("null"));
    }
}
