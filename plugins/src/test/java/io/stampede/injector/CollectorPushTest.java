/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.injector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.stampede.names.PluginNames;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class CollectorPushTest {

    private HttpServer server;
    private final List<String> received = new CopyOnWriteArrayList<>();
    private String url;

    @BeforeEach
    void collector() throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 4);
        server.createContext("/run", x -> {
            received.add(x.getRequestHeaders().getFirst(PluginNames.ENGINE_HTTP_HEADER) + "|"
                    + new String(x.getRequestBody().readAllBytes(), StandardCharsets.US_ASCII));
            x.sendResponseHeaders(204, -1);
            x.close();
        });
        server.start();
        url = "http://127.0.0.1:" + server.getAddress().getPort() + "/run";
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    @Test
    void rowsGoToTheCollectorOnlyWhileATestRuns() {
        AtomicBoolean running = new AtomicBoolean(false);
        CollectorPush push = new CollectorPush(() -> url, running::get, "10.0.0.11:1099");
        assertFalse(push.send("h", "0,1"), "no test: the property left from an earlier run is not used");
        running.set(true);
        assertTrue(push.send("h", "1,2"));
        assertEquals(List.of("10.0.0.11:1099|h\n1,2\n"), received);
    }

    @Test
    void noCollectorNoNameOrARefusingOneSendNothingMore() {
        AtomicReference<String> property = new AtomicReference<>(null);
        CollectorPush push = new CollectorPush(property::get, () -> true, "10.0.0.11:1099");
        assertFalse(push.send("h", "0,1"), "a run without a collector (a controller that is not Stampede's)");
        assertFalse(new CollectorPush(() -> url, () -> true, "").send("h", "0,1"), "an engine without a name");

        property.set(url.replace("/run", "/gone"));  // 404: refused
        assertFalse(push.send("h", "0,1"));
        server.createContext("/gone", x -> {
            received.add("asked again");
            x.sendResponseHeaders(204, -1);
            x.close();
        });
        assertFalse(push.send("h", "1,1"), "a collector that refused is not asked again");
        property.set(url);  // the next run's collector
        assertTrue(push.send("h", "2,1"));
        assertEquals(List.of("10.0.0.11:1099|h\n2,1\n"), received);
    }
}
