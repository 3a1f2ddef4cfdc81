/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sampler;

import io.stampede.engine.Engine;
import io.stampede.names.PluginNames;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.apache.jmeter.util.JMeterUtils;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Several connections per JMeter thread, pacing and target rate, over real loopback sockets; the thread drives its own
 * event loop here ({@link ConnectionsPerThreadEngineIoTest} runs the same cases on the engine's loops).
 */
class ConnectionsPerThreadTest extends SamplerTestSupport {

    @BeforeAll
    static void jmeterPropertiesWithSampleVariables() throws Exception {
        Path props = Files.createTempFile("jmeter", ".properties");
        // The thread's own loop, whatever the connection count (auto would choose the engine's for these few).
        Files.writeString(props, "sample_variables=" + PluginNames.OPEN_CONNECTIONS_VARIABLE + ","
                + PluginNames.ELAPSED_US_VARIABLE + "," + PluginNames.CORRECTED_US_VARIABLE + "\n"
                + PluginNames.IO_MODE + "=" + IoMode.THREAD.value() + "\n");
        JMeterUtils.loadJMeterProperties(props.toString());
        Files.delete(props);
        JMeterContextService.getContext().setVariables(new JMeterVariables());
    }

    private static TestServer delaying(long millis) throws Exception {
        return new TestServer((sock, out, req, n) -> {
            sleep(millis);
            out.write(TestServer.OK.getBytes(StandardCharsets.ISO_8859_1));
        });
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private HttpRawSampler multi(int port, int connections) {
        HttpRawSampler s = raw(port, GET);
        s.setProperty(PluginNames.CONNECTIONS_PER_THREAD, Integer.toString(connections));
        return s;
    }

    private static long variable(String name) {
        return Long.parseLong(JMeterContextService.getContext().getVariables().get(name));
    }

    @Test
    void oneThreadKeepsAllItsConnectionsBusyAndGetsOneResultPerResponse() throws Exception {
        try (TestServer server = delaying(300)) {
            HttpRawSampler s = multi(server.port(), 5);
            long t0 = System.nanoTime();
            List<SampleResult> results = new ArrayList<>();
            for (int i = 0; i < 15; i++) {
                results.add(s.sample(null));
            }
            long ms = (System.nanoTime() - t0) / 1_000_000;
            for (SampleResult r : results) {
                assertTrue(r.isSuccessful(), r.getResponseCode() + " " + r.getResponseMessage());
                assertEquals(TestServer.OK_BODY, r.getResponseDataAsString());
                assertTrue(r.getTime() >= 290, "each response took the server's 300 ms, got " + r.getTime());
                assertEquals("http://127.0.0.1:" + server.port() + "/x", r.getUrlAsString());
                assertTrue(r.getSentBytes() > 0);
            }
            // Three rounds of five concurrent 300 ms exchanges (0.9 s); one connection would need 4.5 s.
            assertTrue(ms < 3000, "15 responses over 5 connections took " + ms + " ms");
            assertEquals(5, server.awaitConnections(5), "the five connections are kept alive");
            assertEquals(5, variable(PluginNames.OPEN_CONNECTIONS_VARIABLE));
            assertEquals(5, Engine.openConnections());
            s.threadFinished();
            awaitOpenConnections(0);
        }
    }

    private static void awaitOpenConnections(int expected) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (Engine.openConnections() != expected && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertEquals(expected, Engine.openConnections());
    }

    @Test
    void aFailedConnectionIsReportedOnceAndReplaced() throws Exception {
        try (TestServer server = new TestServer((sock, out, req, n) -> {
            if (n == 1) {
                out.write("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc".getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
                sock.close();
                return;
            }
            out.write(TestServer.OK.getBytes(StandardCharsets.ISO_8859_1));
        })) {
            HttpRawSampler s = multi(server.port(), 2);
            int failures = 0;
            for (int i = 0; i < 12; i++) {
                SampleResult r = s.sample(null);
                if (!r.isSuccessful()) {
                    failures++;
                    assertEquals("Non HTTP response code: io.stampede.engine.PrematureCloseException",
                            r.getResponseCode());
                }
            }
            // Every connection's second response is cut short; each replacement fails the same way later.
            assertTrue(failures >= 2, "failures " + failures);
            assertTrue(server.connections.get() > 2, "failed connections were replaced");
            s.threadFinished();
        }
    }

    @Test
    void aNewTargetMidRunGetsNewConnectionsAndTheOldOnesClose() throws Exception {
        try (TestServer first = delaying(0); TestServer second = delaying(0)) {
            HttpRawSampler s = multi(first.port(), 3);
            for (int i = 0; i < 6; i++) {
                assertTrue(s.sample(null).isSuccessful());
            }
            s.setPort(Integer.toString(second.port()));
            for (int i = 0; i < 6; i++) {
                SampleResult r = s.sample(null);
                assertTrue(r.isSuccessful(), r.getResponseMessage());
                assertEquals("http://127.0.0.1:" + second.port() + "/x", r.getUrlAsString());
            }
            assertEquals(3, second.awaitConnections(3), "the new target got the thread's three connections");
            awaitOpenConnections(3);
            s.threadFinished();
            awaitOpenConnections(0);
        }
    }

    @Test
    void aStalledResponseTimesOutWhileTheOtherConnectionsGoOn() throws Exception {
        try (TestServer server = new TestServer((sock, out, req, n) -> {
            if (sock.getPort() % 2 == 0 && n == 0) {
                sleep(3000);
            }
            out.write(TestServer.OK.getBytes(StandardCharsets.ISO_8859_1));
        })) {
            HttpRawSampler s = multi(server.port(), 4);
            s.setResponseTimeout("300");
            long t0 = System.nanoTime();
            int timeouts = 0;
            for (int i = 0; i < 40 && timeouts == 0; i++) {
                SampleResult r = s.sample(null);
                if (!r.isSuccessful()) {
                    assertEquals("Non HTTP response code: io.stampede.engine.ResponseTimeoutException",
                            r.getResponseCode());
                    timeouts++;
                }
            }
            assertEquals(1, timeouts);
            assertTrue((System.nanoTime() - t0) / 1_000_000 < 2500, "timeout found promptly (3 s stall, 300 ms timeout)");
            s.threadFinished();
        }
    }

    @Test
    void pacingSendsOneRequestPerIntervalOnEachConnection() throws Exception {
        try (TestServer server = TestServer.answering(TestServer.OK)) {
            HttpRawSampler s = multi(server.port(), 2);
            s.setProperty(PluginNames.PACING_MS, "300");
            long t0 = System.nanoTime();
            for (int i = 0; i < 6; i++) {
                assertTrue(s.sample(null).isSuccessful());
            }
            long ms = (System.nanoTime() - t0) / 1_000_000;
            // Connection 1 sends at 0, 300, 600 ms; connection 2 at 150, 450, 750 ms.
            assertTrue(ms >= 700 && ms < 3000, "6 paced requests took " + ms + " ms");
            assertEquals(2, server.awaitConnections(2));
            s.threadFinished();
        }
    }

    @Test
    void targetRateIsKeptAndLatencyIsCorrectedForCoordinatedOmission() throws Exception {
        try (TestServer server = delaying(100)) {
            HttpRawSampler s = multi(server.port(), 1);
            // 20 requests/s on one connection whose responses take 100 ms: the schedule falls behind at once.
            s.setProperty(PluginNames.TARGET_RATE, "20");
            SampleResult last = null;
            for (int i = 0; i < 8; i++) {
                last = s.sample(null);
                assertTrue(last.isSuccessful());
            }
            assertNotNull(last);
            long elapsedUs = variable(PluginNames.ELAPSED_US_VARIABLE);
            long correctedUs = variable(PluginNames.CORRECTED_US_VARIABLE);
            assertTrue(elapsedUs >= 100_000 && elapsedUs < 1_000_000, "elapsed " + elapsedUs);
            // The 8th request was meant for 350 ms and completes near 800 ms: about 450 ms late plus 100 ms.
            assertTrue(correctedUs > elapsedUs + 250_000, "corrected " + correctedUs + " elapsed " + elapsedUs);
            s.threadFinished();
        }
    }

    @Test
    void targetRateSpreadsOverConnections() throws Exception {
        try (TestServer server = TestServer.answering(TestServer.OK)) {
            HttpRawSampler s = multi(server.port(), 4);
            s.setProperty(PluginNames.TARGET_RATE, "40");
            long t0 = System.nanoTime();
            for (int i = 0; i < 20; i++) {
                assertTrue(s.sample(null).isSuccessful());
            }
            long ms = (System.nanoTime() - t0) / 1_000_000;
            // The 20th request is scheduled at 19/40 s = 475 ms.
            assertTrue(ms >= 440 && ms < 3000, "20 requests at 40/s took " + ms + " ms");
            long corrected = variable(PluginNames.CORRECTED_US_VARIABLE);
            assertTrue(corrected < 300_000, "on schedule, corrected latency stays small: " + corrected);
            s.threadFinished();
        }
    }

    @Test
    void stopTestNowEndsTheWaitAtOnce() throws Exception {
        try (TestServer server = delaying(5000)) {
            HttpRawSampler s = multi(server.port(), 3);
            CompletableFuture.runAsync(() -> {
                sleep(300);
                s.interrupt();
            });
            long t0 = System.nanoTime();
            SampleResult r = s.sample(null);
            assertFalse(r.isSuccessful());
            assertEquals("Non HTTP response code: java.io.InterruptedIOException", r.getResponseCode());
            assertTrue((System.nanoTime() - t0) / 1_000_000 < 2000);
            s.threadFinished();
            awaitOpenConnections(0);
        }
    }

    @Test
    void pacingAndTargetRateTogetherAreRejectedByName() throws Exception {
        try (TestServer server = TestServer.answering(TestServer.OK)) {
            HttpRawSampler s = multi(server.port(), 2);
            s.setProperty(PluginNames.PACING_MS, "100");
            s.setProperty(PluginNames.TARGET_RATE, "10");
            SampleResult r = s.sample(null);
            assertFalse(r.isSuccessful());
            assertTrue(r.getResponseMessage().contains("stampede.pacing_ms and stampede.target_rate"),
                    r.getResponseMessage());
            assertEquals(0, server.connections.get());
        }
    }

    @Test
    void httpSamplerUsesTheSameConnectionGroup() throws Exception {
        try (TestServer server = TestServer.answering(TestServer.OK)) {
            HttpSampler s = new HttpSampler();
            s.setName("http");
            s.setHost("127.0.0.1");
            s.setPort(Integer.toString(server.port()));
            s.setPath("/y");
            s.setProperty(PluginNames.CONNECTIONS_PER_THREAD, "3");
            for (int i = 0; i < 9; i++) {
                SampleResult r = s.sample(null);
                assertTrue(r.isSuccessful());
                assertEquals("http://127.0.0.1:" + server.port() + "/y", r.getUrlAsString());
            }
            assertEquals(3, server.awaitConnections(3));
            s.threadFinished();
        }
    }

    @Test
    void pipelinedRequestsGetTheirOwnResponsesInOrder() throws Exception {
        // The server answers nothing until it holds four requests, then all four in one write: only a client that
        // writes four requests ahead gets any answer, and must split one read into four results.
        try (TestServer server = new TestServer((sock, out, req, n) -> {
            if (n % 4 == 3) {
                StringBuilder four = new StringBuilder();
                for (int i = n - 3; i <= n; i++) {
                    String body = "resp-" + i;
                    four.append("HTTP/1.1 200 OK\r\nContent-Length: ").append(body.length()).append("\r\n\r\n")
                            .append(body);
                }
                out.write(four.toString().getBytes(StandardCharsets.ISO_8859_1));
            }
        })) {
            HttpRawSampler s = multi(server.port(), 1);
            s.setProperty(PluginNames.PIPELINE_DEPTH, "4");
            s.setResponseTimeout("5000");
            for (int i = 0; i < 12; i++) {
                SampleResult r = s.sample(null);
                assertTrue(r.isSuccessful(), r.getResponseCode() + " " + r.getResponseMessage());
                assertEquals("resp-" + i, r.getResponseDataAsString());
            }
            assertEquals(1, server.connections.get());
            s.threadFinished();
        }
    }

    @Test
    void pipeliningWithoutKeepAliveIsRejectedByName() throws Exception {
        try (TestServer server = TestServer.answering(TestServer.OK)) {
            HttpRawSampler s = multi(server.port(), 1);
            s.setProperty(PluginNames.PIPELINE_DEPTH, "2");
            s.setKeepAlive(false);
            SampleResult r = s.sample(null);
            assertFalse(r.isSuccessful());
            assertTrue(r.getResponseMessage().contains("stampede.pipeline_depth 2 needs keep-alive"),
                    r.getResponseMessage());
        }
    }
}
