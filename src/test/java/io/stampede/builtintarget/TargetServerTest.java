/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.builtintarget;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class TargetServerTest {

    @Test
    void servesTheStaticBodyWithKeepAlivePipeliningAndHead() throws Exception {
        try (TargetServer server = TargetServer.start(TargetSettings.loopbackDefaults());
             Socket s = new Socket("127.0.0.1", server.address().getPort())) {
            s.setSoTimeout(5000);
            OutputStream out = s.getOutputStream();
            out.write(("GET /test.txt HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "HEAD / HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String all = readAll(s.getInputStream());
            assertEquals(3, all.split("HTTP/1.1 200 OK", -1).length - 1, all);
            assertEquals(2, all.split("Stampede target.\n", -1).length - 1, "HEAD has no body: " + all);
            assertTrue(all.contains("content-length: 18"), all);
            assertTrue(all.contains("connection: close"), all);
        }
    }

    @Test
    void bodyHasTheAskedSize() {
        assertEquals(18, TargetServer.StaticBody.of(18).length);
        assertEquals('\n', TargetServer.StaticBody.of(1000)[999]);
        assertEquals(0, TargetServer.StaticBody.of(0).length);
    }

    @Test
    void refusesBadSettings() {
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> new TargetSettings("127.0.0.1", 70000, 18, 1, 10)).getMessage().contains("--port"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> new TargetSettings("127.0.0.1", 0, -1, 1, 10)).getMessage().contains("--body-size"));
    }

    private static String readAll(InputStream in) throws Exception {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        in.transferTo(buf); // the last request asked to close, so EOF ends the read
        return buf.toString(StandardCharsets.US_ASCII);
    }
}
