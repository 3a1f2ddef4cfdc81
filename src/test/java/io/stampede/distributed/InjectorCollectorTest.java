/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.distributed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.injectorhealth.InjectorSeries;
import io.stampede.names.PluginNames;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InjectorCollectorTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static int post(String url, String engine, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).POST(HttpRequest.BodyPublishers.ofString(body));
        if (engine != null) {
            b.header("X-Stampede-Engine", engine);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private static String row(int second, String loopLag) {
        return PluginNames.INJECTOR_SERIES_HEADER + "\n" + second + ",0.500,1.000,2,0.0,0,2.00,80.0," + loopLag + "\n";
    }

    @Test
    void eachEnginesRowsGoToItsOwnFileCountedFromItsFirstRow(@TempDir Path dir) throws Exception {
        try (InjectorCollector c = InjectorCollector.start("127.0.0.1", dir)) {
            assertEquals(204, post(c.url(), "127.0.0.1:41099", row(812, "0.40")));
            assertEquals(204, post(c.url(), "127.0.0.1:41099", row(813, "0.50")));
            assertEquals(204, post(c.url(), "10.0.0.12:1099", row(5, "")));
        }
        List<String> first = Files.readAllLines(InjectorCollector.file(dir, RemoteEngine.parse("127.0.0.1:41099")));
        assertEquals(List.of(PluginNames.INJECTOR_SERIES_HEADER, "0,0.500,1.000,2,0.0,0,2.00,80.0,0.40",
                "1,0.500,1.000,2,0.0,0,2.00,80.0,0.50"), first);
        Path second = InjectorCollector.file(dir, RemoteEngine.parse("10.0.0.12:1099"));
        assertEquals("injector-10.0.0.12_1099.csv", second.getFileName().toString());
        InjectorSeries s = InjectorSeries.readFile(second).orElseThrow();
        assertEquals(1, s.rows().size());
        assertFalse(s.hasLoopLag());
    }

    @Test
    void rowsOfAnotherRunOrNotRowsAtAllAreRefused(@TempDir Path dir) throws Exception {
        try (InjectorCollector c = InjectorCollector.start("127.0.0.1", dir)) {
            String otherRun = c.url().replaceFirst("/[^/]+$", "/another-run");
            assertEquals(404, post(otherRun, "127.0.0.1:41099", row(1, "0.4")));
            assertEquals(400, post(c.url(), null, row(1, "0.4")), "no engine name");
            assertEquals(400, post(c.url(), "../../etc/x:1", row(1, "0.4")), "a name that is no host:port");
            assertEquals(400, post(c.url(), "127.0.0.1:41099", "second\n1,2\n"), "not the monitor's header");
            assertEquals(400, post(c.url(), "127.0.0.1:41099", PluginNames.INJECTOR_SERIES_HEADER + "\n1,2;rm -rf\n"));
        }
        try (var files = Files.list(dir)) {
            assertEquals(0, files.count(), "nothing written");
        }
    }

    @Test
    void aRowWithoutCommasIsRefusedWholeAndTheNextRowStillStartsTheFile(@TempDir Path dir) throws Exception {
        try (InjectorCollector c = InjectorCollector.start("127.0.0.1", dir)) {
            assertEquals(400, post(c.url(), "127.0.0.1:41099", PluginNames.INJECTOR_SERIES_HEADER + "\n812\n"), "one cell");
            assertEquals(400, post(c.url(), "127.0.0.1:41099", PluginNames.INJECTOR_SERIES_HEADER + "\n812,0.5\n"), "two cells");
            assertEquals(204, post(c.url(), "127.0.0.1:41099", row(813, "0.50")));
        }
        assertEquals(List.of(PluginNames.INJECTOR_SERIES_HEADER, "0,0.500,1.000,2,0.0,0,2.00,80.0,0.50"),
                Files.readAllLines(InjectorCollector.file(dir, RemoteEngine.parse("127.0.0.1:41099"))),
                "the refused rows moved no counter: the first taken row is second 0, under the header");
    }

    /**
     * Connections that send half a request and wait: rows from an engine still land at once, and the server's
     * request time limit closes the stalled connections.
     */
    @Test
    void halfSentRequestsDoNotStopTheSeries(@TempDir Path dir) throws Exception {
        try (InjectorCollector c = InjectorCollector.start("127.0.0.1", dir)) {
            URI u = URI.create(c.url());
            List<Socket> stalled = new ArrayList<>();
            try {
                for (int i = 0; i < 6; i++) {
                    Socket s = new Socket(u.getHost(), u.getPort());
                    s.getOutputStream().write(("POST " + u.getPath() + " HTTP/1.1\r\nHost: x\r\nContent-Length: 500\r\n"
                            + "X-Stampede-Engine: 127.0.0.1:41099\r\n\r\n" + PluginNames.INJECTOR_SERIES_HEADER)
                            .getBytes(StandardCharsets.US_ASCII));
                    s.getOutputStream().flush();
                    stalled.add(s);
                }
                Thread.sleep(300);
                HttpRequest r = HttpRequest.newBuilder(u).timeout(Duration.ofSeconds(3))
                        .header("X-Stampede-Engine", "10.0.0.12:1099").POST(HttpRequest.BodyPublishers.ofString(row(5, "0.1")))
                        .build();
                assertEquals(204, HTTP.send(r, HttpResponse.BodyHandlers.discarding()).statusCode());
                Socket first = stalled.get(0);
                first.setSoTimeout((InjectorCollector.REQUEST_SECONDS + 5) * 1000);
                try {
                    assertEquals(-1, first.getInputStream().read(), "the stalled request's connection is closed");
                } catch (SocketException reset) {
                    // closed too
                }
            } finally {
                for (Socket s : stalled) {
                    s.close();
                }
            }
        }
        assertEquals(2, Files.readAllLines(InjectorCollector.file(dir, RemoteEngine.parse("10.0.0.12:1099"))).size());
    }

    @Test
    void anEnginesSenderCountsAreKeptForTheSummary(@TempDir Path dir) throws Exception {
        RemoteEngine engine = RemoteEngine.parse("127.0.0.1:41099");
        try (InjectorCollector c = InjectorCollector.start("127.0.0.1", dir)) {
            assertEquals(400, post(c.url(), engine.toString(), PluginNames.DELIVERY_HEADER + "\n12,x\n"));
            assertTrue(InjectorCollector.delivery(dir, engine).isEmpty());
            assertEquals(204, post(c.url(), engine.toString(), PluginNames.DELIVERY_HEADER + "\n1200,34,100\n"));
        }
        assertEquals(List.of(1200L, 34L, 100L), java.util.Arrays.stream(InjectorCollector.delivery(dir, engine).orElseThrow())
                .boxed().toList());
    }

    @Test
    void theUrlIsOnTheGivenAddress(@TempDir Path dir) throws Exception {
        try (InjectorCollector c = InjectorCollector.start("127.0.0.1", dir)) {
            assertTrue(c.url().matches("http://127\\.0\\.0\\.1:\\d+/[0-9a-f-]{36}"), c.url());
        }
    }
}
