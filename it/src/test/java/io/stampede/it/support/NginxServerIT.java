/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.UncheckedIOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The nginx the other tests rely on: serves the two files, keeps connections open, and leaves nothing behind. */
class NginxServerIT {

    @Test
    void servesTheFilesThenStopsWithItsWorkersAndPort() throws InterruptedException {
        NginxServer nginx = NginxServer.start(NginxServer.Options.defaults().withWorkers(2).withAccessLog());
        List<ProcessHandle> processes = nginx.processes();
        int port = nginx.port();
        try (nginx) {
            assertEquals(3, processes.size(), "master + 2 workers");
            HttpExchange text = HttpExchange.send(nginx.host(), port, "GET /test.txt HTTP/1.1\r\nHost: x\r\n\r\n");
            assertTrue(text.head().startsWith("HTTP/1.1 200 OK\r\n"), text.head());
            assertTrue(text.head().contains("Content-Length: 18\r\n"), text.head());
            assertTrue(text.head().contains("Connection: keep-alive\r\n"), text.head());
            assertEquals(18, NginxServer.TEST_TXT.length());
            HttpExchange index = HttpExchange.send(nginx.host(), port, "GET / HTTP/1.1\r\nHost: x\r\n\r\n");
            assertTrue(index.head().contains("Content-Type: text/html"), index.head());
            // nginx logs a request after it sent the response, so the line may still be on its way: wait up to 2 s.
            long deadline = System.nanoTime() + 2_000_000_000L;
            while (nginx.accessLogConnections().size() < 2 && System.nanoTime() - deadline < 0) {
                Thread.sleep(20);
            }
            assertEquals(2, nginx.accessLogConnections().size(), "two requests logged");
        }
        assertTrue(processes.stream().noneMatch(ProcessHandle::isAlive), "nginx master and workers stopped");
        assertThrows(UncheckedIOException.class,
                () -> HttpExchange.send("127.0.0.1", port, "GET / HTTP/1.1\r\nHost: x\r\n\r\n"), "port closed");
    }

    @Test
    void accessLogIsOnlyAvailableWhenAskedFor() {
        try (NginxServer nginx = NginxServer.start(NginxServer.Options.defaults())) {
            assertFalse(nginx.options().accessLog());
            assertThrows(IllegalStateException.class, nginx::accessLogConnections);
        }
    }
}
