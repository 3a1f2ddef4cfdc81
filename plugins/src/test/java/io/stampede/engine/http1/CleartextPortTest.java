/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.http1;

import io.netty.handler.ssl.NotSslRecordException;
import io.stampede.engine.Engine;
import io.stampede.engine.Failures;
import io.stampede.engine.PreparedRequest;
import io.stampede.engine.tls.Tls;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URL;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * https pointed at a cleartext port: the server answers the TLS handshake with an HTTP/1.1 error. The one connect
 * path names that for HTTP/1.1 as it does for h2, quoting the reply, with the class users already see.
 */
@Timeout(120)
class CleartextPortTest {
    @Test
    void httpsToACleartextPortSaysTheServerDidNotAnswerInTls() throws Exception {
        // The JDK's TLS initialises at the first context, which a loaded machine may take seconds for: not timed here.
        Engine.get().tlsContexts().get(false, true);
        try (ServerSocket server = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
            Thread t = new Thread(() -> answerInCleartext(server), "cleartext-server");
            t.setDaemon(true);
            t.start();
            InetSocketAddress remote = new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort());
            Http1Connection c = new Http1Connection(Engine.get(), Engine.get().nextLoop(), null, null, remote, null,
                    10_000, 1, new Tls("localhost", remote.getPort(), true));
            try {
                PreparedRequest req = PreparedRequest.ofBytes("GET / HTTP/1.1\r\nHost: t\r\n\r\n"
                        .getBytes(StandardCharsets.ISO_8859_1), false, new URL("https://localhost/"));
                Http1Exchange e = new ParkingCompletion().send(c, req, 1024, 10_000, 10_000);
                assertTrue(e.failed());
                assertInstanceOf(NotSslRecordException.class, e.failure());
                Failures.Name name = Failures.name(e.failure());
                assertEquals(NotSslRecordException.class.getName(), name.className());
                assertEquals("The server at " + remote.getHostString() + ':' + remote.getPort() + " did not answer in"
                        + " TLS (it sent 'HTTP/1.1 400 Bad Request'); https needs a TLS port (nginx: 'listen PORT"
                        + " ssl;'); use http for a cleartext port", name.message());
            } finally {
                c.close();
            }
        }
    }

    private static void answerInCleartext(ServerSocket server) {
        try (Socket s = server.accept()) {
            InputStream in = s.getInputStream();
            in.read(new byte[512]); // the ClientHello, or part of it
            OutputStream out = s.getOutputStream();
            out.write("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                    .getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            in.read(new byte[512]);
        } catch (IOException ignored) {
            // the client closed first
        }
    }
}
