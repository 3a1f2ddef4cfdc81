/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sampler;

import io.stampede.engine.PoolTimeoutException;
import io.stampede.names.PluginNames;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.util.JMeterUtils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * stampede.connection_sharing=engine over real loopback sockets: many JMeter threads (each with its own context and
 * sampler clone, as JMeter runs them) borrow from one pool per target.
 */
class PooledConnectionsTest extends SamplerTestSupport {

    @BeforeEach
    void sharedPool() throws Exception {
        Path props = Files.createTempFile("jmeter", ".properties");
        Files.writeString(props, PluginNames.CONNECTION_SHARING + "=engine\n" + PluginNames.POOL_SIZE + "=2\n");
        JMeterUtils.loadJMeterProperties(props.toString());
        Files.delete(props);
    }

    @AfterEach
    void ownConnectionsAgain() {
        // The properties are global to the JVM: later test classes must get the default again.
        Properties p = JMeterUtils.getJMeterProperties();
        p.remove(PluginNames.CONNECTION_SHARING);
        p.remove(PluginNames.POOL_SIZE);
    }

    /** {@code users} threads, each sampling {@code samples} times with a clone of its own; all results. */
    private List<SampleResult> users(int users, int samples, int port, int connectTimeout) throws Exception {
        List<SampleResult> all = new CopyOnWriteArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int u = 0; u < users; u++) {
            Thread t = new Thread(() -> {
                JMeterContextService.getContext().setVariables(new org.apache.jmeter.threads.JMeterVariables());
                HttpRawSampler s = raw(port, GET);
                s.setConnectTimeout(Integer.toString(connectTimeout));
                for (int i = 0; i < samples; i++) {
                    all.add(s.sample(null));
                }
                s.threadFinished();
            });
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join(20_000);
        }
        return all;
    }

    private static TestServer delaying(long millis) throws Exception {
        return new TestServer((sock, out, req, n) -> {
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            out.write(TestServer.OK.getBytes(StandardCharsets.ISO_8859_1));
        });
    }

    @Test
    void tenUsersShareTwoConnectionsAndOnlyTheOpeningSamplesShowConnect() throws Exception {
        try (TestServer server = delaying(20)) {
            List<SampleResult> results = users(10, 5, server.port(), 5000);
            assertEquals(50, results.size());
            for (SampleResult r : results) {
                assertTrue(r.isSuccessful(), r.getResponseCode() + " " + r.getResponseMessage());
                assertEquals(TestServer.OK_BODY, r.getResponseDataAsString());
            }
            assertEquals(2, server.awaitConnections(2), "the pool never opens more than stampede.pool_size");
            assertEquals(50, server.requests.size());
            // Ten users queue for two connections, so most samples waited; only the two that opened a connection
            // have Connect >= 1 ms without a wait of a millisecond or more.
            long opened = results.stream().filter(r -> r.getConnectTime() > 0 && r.getConnectTime() < r.getTime())
                    .count();
            assertTrue(opened >= 2, "samples with Connect: " + opened);
            assertTrue(results.stream().allMatch(r -> r.getLatency() >= r.getConnectTime()),
                    "a pool wait is inside Latency too");
        }
    }

    @Test
    void aUserAloneReusesThePooledConnectionWithoutConnect() throws Exception {
        try (TestServer server = TestServer.answering(TestServer.OK)) {
            List<SampleResult> results = users(1, 20, server.port(), 5000);
            assertEquals(1, results.stream().filter(r -> r.getConnectTime() > 0).count(),
                    "Connect > 0 only on the sample that opened the connection");
            assertTrue(results.get(0).getConnectTime() > 0);
            assertEquals(1, server.awaitConnections(1));
        }
    }

    @Test
    void aPooledUserKeepsNoEncodedRequestBetweenSamples() throws Exception {
        try (TestServer server = TestServer.answering(TestServer.OK)) {
            JMeterContextService.getContext().setVariables(new org.apache.jmeter.threads.JMeterVariables());
            HttpRawSampler s = raw(server.port(), GET);
            for (int i = 0; i < 3; i++) {
                SampleResult r = s.sample(null);
                assertTrue(r.isSuccessful(), r.getResponseCode() + " " + r.getResponseMessage());
                assertEquals(null, s.prepared(s.settings().target(), s.settings().keepAlive()),
                        "the request's bytes are freed when the sample ends");
            }
            s.threadFinished();
            assertEquals(3, server.requests.size(), "each sample encoded and sent its request again");
        }
    }

    @Test
    void aPooledUserKeepsNoCopyOfTheLastResponseBetweenSamples() throws Exception {
        try (TestServer server = TestServer.answering(TestServer.OK)) {
            JMeterContextService.getContext().setVariables(new org.apache.jmeter.threads.JMeterVariables());
            HttpRawSampler s = raw(server.port(), GET);
            PooledMode mode = new PooledMode(s, 2);
            ResultFiller filler = mode.filler();
            List<String> headers = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                SampleResult r = mode.sample(new SampleResult());
                assertTrue(r.isSuccessful(), r.getResponseCode() + " " + r.getResponseMessage());
                assertFalse(filler.keepsLastResponse(), "the filler's copy is freed when the sample ends");
                headers.add(r.getResponseHeaders());
                assertEquals(TestServer.OK_BODY, r.getResponseDataAsString(), "and the whole body");
            }
            mode.close();
            assertTrue(headers.get(0).startsWith("HTTP/1.1 200"), headers.get(0));
            assertEquals(1, headers.stream().distinct().count(), "each sample still gets the whole header block");
        }
    }

    /**
     * A pooled user thinks for seconds between samples with one clone per sampler of its plan: nothing a clone keeps
     * between samples is its own copy of what every clone has (reason phrase, Content-Type, pool key, variables
     * settings) or only serves a comparison with a response or request it no longer keeps.
     */
    @Test
    void aPooledUsersSamplerClonesKeepNoStateOfTheirOwnBetweenSamples() throws Exception {
        try (TestServer server = TestServer.answering(TestServer.OK)) {
            JMeterContextService.getContext().setVariables(new org.apache.jmeter.threads.JMeterVariables());
            HttpSampler login = new HttpSampler();
            HttpSampler step = new HttpSampler();
            List<SampleResult> results = new ArrayList<>();
            for (HttpSampler s : List.of(login, step)) {
                s.setName("http");
                s.setHost("127.0.0.1");
                s.setPort(Integer.toString(server.port()));
                results.add(s.sample(null));
                results.add(s.sample(null));
            }
            for (SampleResult r : results) {
                assertTrue(r.isSuccessful(), r.getResponseCode() + " " + r.getResponseMessage());
                assertSame(results.get(0).getResponseMessage(), r.getResponseMessage(), "one reason phrase for all");
                assertSame(results.get(0).getContentType(), r.getContentType(), "one Content-Type for all");
            }
            PooledMode a = (PooledMode) login.samplingMode();
            PooledMode b = (PooledMode) step.samplingMode();
            for (PooledMode m : List.of(a, b)) {
                assertFalse(m.filler().remembersLast(), "no room for a last response it would drop anyway");
                assertFalse(m.connections().holdsCompletion(), "the completion is the exchange's, not the user's");
            }
            assertSame(a.connections().lastKey(), b.connections().lastKey(), "one pool key for all");
            assertNull(login.lastInputs(), "nothing to compare the next request's inputs with");
            assertNull(step.lastInputs(), "nothing to compare the next request's inputs with");
            assertSame(StampedeVariables.fromJMeterProperties(), StampedeVariables.fromJMeterProperties(),
                    "no stampede_* variable wanted: one settings object for all");
            login.threadFinished();
            step.threadFinished();
        }
    }

    @Test
    void aFullPoolWaitsAndTheWaitCountsInConnectAndLatency() throws Exception {
        try (TestServer server = delaying(400)) {
            List<SampleResult> results = users(3, 1, server.port(), 5000);
            assertTrue(results.stream().allMatch(SampleResult::isSuccessful));
            SampleResult last = results.stream().max((a, b) -> Long.compare(a.getTime(), b.getTime())).orElseThrow();
            // Two connections, three users: the third waited for a response of 400 ms, then got its own 400 ms.
            assertTrue(last.getTime() >= 750, "elapsed " + last.getTime());
            assertTrue(last.getConnectTime() >= 350, "Connect holds the wait: " + last.getConnectTime());
            assertTrue(last.getLatency() >= 750, "Latency holds the wait: " + last.getLatency());
        }
    }

    @Test
    void aPoolFullPastTheConnectTimeoutFailsWithItsOwnKind() throws Exception {
        try (TestServer warm = TestServer.answering(TestServer.OK); TestServer server = delaying(3000)) {
            // The engine's first start (event loops, native epoll) must not eat into the connects timed below.
            users(1, 1, warm.port(), 5000);
            List<SampleResult> results = users(3, 1, server.port(), 1000);
            List<SampleResult> failed = results.stream().filter(r -> !r.isSuccessful()).toList();
            assertEquals(1, failed.size(), () -> "two users have the connections, the third times out: "
                    + failed.stream().map(r -> r.getResponseCode() + " " + r.getResponseMessage() + " "
                    + r.getTime()).toList());
            assertEquals("Non HTTP response code: " + PoolTimeoutException.class.getName(),
                    failed.get(0).getResponseCode());
            assertTrue(failed.get(0).getResponseMessage().contains("connection pool full: all 2 connections to "
                    + "127.0.0.1:" + server.port()), failed.get(0).getResponseMessage());
            assertTrue(failed.get(0).getTime() >= 990 && failed.get(0).getTime() < 2900,
                    "failed after the connect timeout: " + failed.get(0).getTime());
        }
    }

    @Test
    void aPoolSizeBelowOneIsRefusedNamingTheProperty() throws Exception {
        for (String bad : new String[] {"0", "-3", "lots"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> ConnectionSharing.parse("engine", bad));
            assertTrue(e.getMessage().startsWith("stampede.pool_size: '" + bad + "' is not a pool size"),
                    e.getMessage());
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ConnectionSharing.parse("global", ""));
        assertTrue(e.getMessage().startsWith("stampede.connection_sharing: 'global'"), e.getMessage());
        assertFalse(ConnectionSharing.parse(null, null).engine());
        assertEquals(PluginNames.DEFAULT_POOL_SIZE, ConnectionSharing.parse("engine", "").poolSize());
        // In a run, the sample fails with that message instead of sending anything.
        JMeterUtils.getJMeterProperties().setProperty(PluginNames.POOL_SIZE, "0");
        try (TestServer server = TestServer.answering(TestServer.OK)) {
            List<SampleResult> results = users(1, 1, server.port(), 1000);
            assertFalse(results.get(0).isSuccessful());
            assertTrue(results.get(0).getResponseMessage().contains("stampede.pool_size: '0'"),
                    results.get(0).getResponseMessage());
            assertEquals(0, server.connections.get());
        }
    }
}
