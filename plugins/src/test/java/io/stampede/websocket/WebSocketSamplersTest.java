/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.websocket;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.engine.Engine;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The five samplers driven in-process, as a JMeter thread drives them, against a WebSocket server that is not ours
 * (python3-websockets): each step's result as JMeter would record it, and each failure under its own exception.
 */
class WebSocketSamplersTest {
    private static WebSocketPeer peer;

    @BeforeAll
    static void startPeer() throws Exception {
        peer = WebSocketPeer.start();
    }

    @AfterAll
    static void stopPeer() throws Exception {
        Engine.shutdown();
        if (peer != null) {
            peer.close();
        }
    }

    @BeforeEach
    void freshThread() {
        JMeterContextService.getContext().setVariables(new JMeterVariables());
    }

    @AfterEach
    void endThread() {
        new WebSocketCloseSampler().threadFinished();
    }

    static WebSocketOpenSampler open(String url, Map<String, String> props) {
        WebSocketOpenSampler s = new WebSocketOpenSampler();
        s.setName("open");
        s.setUrl(url);
        props.forEach(s::setProperty);
        return s;
    }

    static <T extends WebSocketSampler> T step(T s, String name, Map<String, String> props) {
        s.setName(name);
        props.forEach(s::setProperty);
        return s;
    }

    static String text(SampleResult r) {
        return new String(r.getResponseData(), StandardCharsets.UTF_8);
    }

    @Test
    void echoRoundTripThenCloseHandshake() {
        SampleResult opened = open(peer.url("/echo"), Map.of()).sample(null);
        assertAll("handshake",
                () -> assertTrue(opened.isSuccessful(), opened::getResponseMessage),
                () -> assertEquals("101", opened.getResponseCode()),
                () -> assertTrue(opened.getConnectTime() >= 1, "Connect = handshake time"),
                () -> assertTrue(opened.getBytesAsLong() > 100, "the 101 response's bytes"),
                () -> assertTrue(opened.getSentBytes() > 100, "the upgrade request's bytes"));
        SampleResult again = open(peer.url("/echo"), Map.of()).sample(null);
        assertTrue(again.isIgnore(), "an open session is kept: a second open records nothing");

        SampleResult reply = step(new WebSocketRequestReplySampler(), "rr", Map.of(
                WebSocketSampler.MESSAGE, "hello 1", WebSocketSampler.MATCH, "contains",
                WebSocketSampler.MATCH_EXPRESSION, "hello")).sample(null);
        assertAll("reply",
                () -> assertTrue(reply.isSuccessful(), reply::getResponseMessage),
                () -> assertEquals("hello 1", text(reply)),
                () -> assertEquals(2 + 7, reply.getBytesAsLong(), "an unmasked 7-byte text frame"),
                () -> assertEquals(6 + 7, reply.getSentBytes(), "a masked 7-byte text frame"),
                () -> assertEquals(reply.getTime(), reply.getLatency()));

        SampleResult closed = step(new WebSocketCloseSampler(), "close", Map.of(
                WebSocketCloseSampler.CLOSE_REASON, "done")).sample(null);
        assertAll("close",
                () -> assertTrue(closed.isSuccessful(), closed::getResponseMessage),
                () -> assertEquals("1000", closed.getResponseCode(), "the server's close code"));
    }

    @Test
    void binaryAndFragmentedMessagesAreJoined() {
        open(peer.url("/fragments"), Map.of()).sample(null);
        String long1 = "0123456789".repeat(10);
        SampleResult r = step(new WebSocketRequestReplySampler(), "frag", Map.of(
                WebSocketSampler.MESSAGE, long1)).sample(null);
        assertTrue(r.isSuccessful(), r::getResponseMessage);
        assertEquals(long1, text(r), "13 fragments of 8 bytes joined");
        SampleResult b = step(new WebSocketRequestReplySampler(), "bin", Map.of(
                WebSocketSampler.MESSAGE, "00 ff 10 20", WebSocketSampler.MESSAGE_TYPE, "binary",
                WebSocketSampler.MATCH, "contains", WebSocketSampler.MATCH_EXPRESSION, "00ff")).sample(null);
        assertTrue(b.isSuccessful(), b::getResponseMessage);
        assertEquals(4, b.getResponseData().length);
    }

    @Test
    void compressionIsNegotiatedWhenAsked() {
        open(peer.url("/echo"), Map.of(WebSocketOpenSampler.COMPRESSION, "true")).sample(null);
        SampleResult ext = step(new WebSocketRequestReplySampler(), "ext", Map.of(
                WebSocketSampler.MESSAGE, "extensions?")).sample(null);
        assertTrue(text(ext).contains("permessage-deflate"), text(ext));
        String big = "compress me ".repeat(200);
        SampleResult r = step(new WebSocketRequestReplySampler(), "z", Map.of(WebSocketSampler.MESSAGE, big))
                .sample(null);
        assertEquals(big, text(r));
        assertTrue(r.getBytesAsLong() < 200, "2400 repetitive bytes arrive deflated: " + r.getBytesAsLong());
    }

    @Test
    void serverPushAwaitedByJsonField() {
        open(peer.url("/push?every=100"), Map.of()).sample(null);
        SampleResult r = step(new WebSocketWaitSampler(), "wait", Map.of(WebSocketSampler.MATCH, "json",
                WebSocketSampler.MATCH_EXPRESSION, "$.n", WebSocketSampler.MATCH_VALUE, "3")).sample(null);
        assertTrue(r.isSuccessful(), r::getResponseMessage);
        assertTrue(text(r).contains("\"n\": 3"), text(r));
        WebSocketWaitSampler never = step(new WebSocketWaitSampler(), "never", Map.of(WebSocketSampler.MATCH, "contains",
                WebSocketSampler.MATCH_EXPRESSION, "never sent", WebSocketSampler.TIMEOUT, "300"));
        // The deadline counts from the call's intended start, which the sampler takes after this instant; the
        // sample's elapsed counts from when the event loop began the call, later by the loop's lag on a busy machine.
        long before = System.nanoTime();
        SampleResult timeout = never.sample(null);
        long waitedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - before);
        assertFailure(timeout, "WebSocketMessageTimeoutException");
        assertTrue(waitedMillis >= 300, "waited the timeout: " + waitedMillis + " ms");
        assertTrue(timeout.getTime() <= waitedMillis,
                "the sample's elapsed is within the wait: " + timeout.getTime() + " of " + waitedMillis + " ms");
    }

    @Test
    void refusedHandshakeKeepsTheStatus() {
        SampleResult r = open(peer.url("/forbidden"), Map.of()).sample(null);
        assertFailure(r, "WebSocketRefusedException");
        assertTrue(r.getResponseMessage().contains("403"), r.getResponseMessage());
    }

    @Test
    void unknownSubprotocolIsAnInvalidHandshake() {
        SampleResult ok = open(peer.url("/echo"), Map.of(WebSocketOpenSampler.SUBPROTOCOLS, "superchat"))
                .sample(null);
        assertTrue(ok.isSuccessful(), ok::getResponseMessage);
        assertTrue(ok.getResponseHeaders().contains("superchat"), ok.getResponseHeaders());
        WebSocketOpenSampler bad = open(peer.url("/echo"), Map.of(WebSocketOpenSampler.SUBPROTOCOLS, "mqtt"));
        bad.setSession("other");
        assertFailure(bad.sample(null), "WebSocketHandshakeInvalidException");
    }

    @Test
    void serverCloseIsReportedWithItsCodeThenReopened() {
        open(peer.url("/close1011?after=1"), Map.of()).sample(null);
        SampleResult first = step(new WebSocketRequestReplySampler(), "rr", Map.of(WebSocketSampler.MESSAGE, "a"))
                .sample(null);
        assertTrue(first.isSuccessful(), first::getResponseMessage);
        SampleResult second = step(new WebSocketRequestReplySampler(), "rr", Map.of(WebSocketSampler.MESSAGE, "b"))
                .sample(null);
        assertFailure(second, "WebSocketClosedException");
        assertTrue(second.getResponseMessage().contains("1011"), second.getResponseMessage());
        SampleResult reopened = open(peer.url("/close1011?after=1"), Map.of()).sample(null);
        assertFalse(reopened.isIgnore(), "a session the server closed opens again");
        assertTrue(reopened.isSuccessful(), reopened::getResponseMessage);
    }

    @Test
    void aCloseBetweenTwoUsesFailsTheNextOpenOnceThenItReopens() throws InterruptedException {
        open(peer.url("/close1011?after=1"), Map.of()).sample(null);
        SampleResult echoed = step(new WebSocketRequestReplySampler(), "rr", Map.of(WebSocketSampler.MESSAGE, "a"))
                .sample(null);
        assertTrue(echoed.isSuccessful(), echoed::getResponseMessage);
        Thread.sleep(300); // the server's close frame follows its echo
        SampleResult reported = open(peer.url("/close1011?after=1"), Map.of()).sample(null);
        assertFailure(reported, "WebSocketClosedException");
        assertTrue(reported.getResponseMessage().contains("1011 server error"), reported.getResponseMessage());
        SampleResult reopened = open(peer.url("/close1011?after=1"), Map.of()).sample(null);
        assertTrue(reopened.isSuccessful() && !reopened.isIgnore(), reopened::getResponseMessage);
    }

    @Test
    void notWebSocketAndSilentServersFailOfTheirOwnKind() {
        assertFailure(open("ws://127.0.0.1:" + peer.garbagePort + "/", Map.of()).sample(null),
                "WebSocketNotUpgradedException");
        SampleResult silent = open("ws://127.0.0.1:" + peer.silentPort + "/", Map.of(
                WebSocketOpenSampler.HANDSHAKE_TIMEOUT, "300")).sample(null);
        assertFailure(silent, "WebSocketHandshakeTimeoutException");
    }

    @Test
    void wssToAPortThatDoesNotSpeakTlsNamesTheMismatchAndTheFix() {
        SampleResult r = open("wss://127.0.0.1:" + peer.garbagePort + "/", Map.of(
                WebSocketOpenSampler.TLS_TRUST_ALL, "true")).sample(null);
        assertAll(r.getResponseCode() + " / " + r.getResponseMessage(),
                () -> assertFalse(r.isSuccessful()),
                () -> assertTrue(r.getResponseCode().endsWith(".NotSslRecordException")),
                () -> assertTrue(r.getResponseMessage().contains("The server at 127.0.0.1:" + peer.garbagePort
                        + " did not answer in TLS (it sent 'SSH-2.0-OpenSSH_9.2p1 not-http')")),
                () -> assertTrue(r.getResponseMessage().endsWith("use ws for a cleartext port")));
    }

    @Test
    void oversizedMessageIsAProtocolError() {
        open(peer.url("/big?bytes=5000"), Map.of(WebSocketOpenSampler.MAX_MESSAGE_BYTES, "1000")).sample(null);
        SampleResult r = step(new WebSocketRequestReplySampler(), "big", Map.of(WebSocketSampler.MESSAGE, "x"))
                .sample(null);
        assertFailure(r, "WebSocketProtocolException");
    }

    @Test
    void manySessionsOnOneThreadEachPaced() {
        int sessions = 200;
        SampleResult opened = open(peer.url("/echo"), Map.of(WebSocketOpenSampler.SESSIONS_PER_THREAD,
                Integer.toString(sessions), WebSocketOpenSampler.PACING_MS, "200")).sample(null);
        assertTrue(opened.isSuccessful(), opened::getResponseMessage);
        assertEquals(sessions, opened.getSubResults().length);
        WebSocketRequestReplySampler rr = step(new WebSocketRequestReplySampler(), "rr", Map.of(
                WebSocketSampler.MESSAGE, "tick"));
        long t0 = System.nanoTime();
        for (int i = 0; i < sessions * 3; i++) {
            SampleResult r = rr.sample(null);
            assertTrue(r.isSuccessful(), r::getResponseMessage);
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        // Three rounds of one message per session every 200 ms: at least two intervals, where a closed loop on
        // loopback would take a few ms per round (the upper bound only stops a hung schedule, on a loaded box).
        assertTrue(seconds > 0.35 && seconds < 30, "three paced rounds took " + seconds + " s");
    }

    static void assertFailure(SampleResult r, String exception) {
        assertAll(r.getSampleLabel() + ": " + r.getResponseMessage(),
                () -> assertFalse(r.isSuccessful()),
                () -> assertEquals("Non HTTP response code: io.stampede.engine.websocket." + exception,
                        r.getResponseCode()));
    }
}
