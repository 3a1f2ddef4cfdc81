/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine;

import io.stampede.engine.http1.ResponseFramer;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.ProtocolException;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** How failures are named for users: transport errors by their JDK class, our own and framing errors as raised. */
class FailuresTest {

    @Test
    void transportErrorsAreNamedByTheJdkClassWhateverWrapsThem() {
        // Native epoll reports errno text in a plain IOException subclass; users know JMeter's names.
        assertEquals(new Failures.Name(ConnectException.class.getName(), "Connection refused"),
                Failures.name(new IOException("connect(..) failed: Connection refused")));
        assertEquals(new Failures.Name(SocketException.class.getName(), "Connection reset by peer"),
                Failures.name(new IOException("recvAddress(..) failed: Connection reset by peer")));
    }

    @Test
    void aFramingErrorQuotingTransportWordsKeepsItsOwnName() {
        String quoted = "Invalid Content-Length: \"Connection refused\"";
        assertEquals(new Failures.Name(ProtocolException.class.getName(), quoted),
                Failures.name(new ProtocolException(quoted)));
        PrematureCloseException closed = Failures.closedByServer("after the header \"X: Connection reset\"");
        assertEquals(PrematureCloseException.class.getName(), Failures.name(closed).className());
        ConnectTimeoutException timeout = Failures.connectTimeout(new InetSocketAddress("127.0.0.1", 9));
        assertEquals(ConnectTimeoutException.class.getName(), Failures.name(timeout).className());
    }

    @Test
    void aCloseBeforeAnyResponseByteSaysSoByItsFlagNotOnlyInWords() throws ProtocolException {
        ResponseFramer framer = new ResponseFramer();
        framer.reset(false, 1000);
        PrematureCloseException none = framer.closedEarly();
        assertTrue(none.beforeAnyByte(), none.getMessage());
        framer.feed(Unpooled.copiedBuffer("HTTP/1.1 200 OK\r\nContent-Le", StandardCharsets.US_ASCII));
        PrematureCloseException some = framer.closedEarly();
        assertFalse(some.beforeAnyByte(), some.getMessage());
        assertFalse(Failures.closedByServer("").beforeAnyByte(), "nothing known about the response: no claim");
    }
}
