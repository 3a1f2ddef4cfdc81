/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.remote;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.apache.jmeter.assertions.AssertionResult;
import org.apache.jmeter.protocol.http.sampler.HTTPSampleResult;
import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.samplers.SampleSaveConfiguration;
import org.apache.jmeter.save.CSVSaveService;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A result sent in the compact form reads back, on the other side of a Java serialization, as the same JTL line. */
class ResultFormTest {

    @BeforeAll
    static void jmeterProperties() throws IOException {
        JMeterProperties.loadIfMissing();
    }

    @Test
    void everyJtlColumnSurvivesTheTrip() throws Exception {
        SampleResult sent = plain("GET /a", false);
        SampleEvent received = roundTrip(CompactSampleSender.outgoing(new SampleEvent(sent, "Users"), false));

        SampleResult got = received.getResult();
        assertSame(SampleResult.class, got.getClass(), "the controller sees JMeter's own class");
        assertEquals(csv(new SampleEvent(sent, "Users")), csv(received));
        assertEquals("Users", received.getThreadGroup());
        assertEquals(sent.getStartTime(), got.getStartTime());
        assertEquals(sent.getEndTime(), got.getEndTime());
        assertEquals("body", got.getResponseDataAsString(), "a failure's data is kept when stripping on error is off");
    }

    @Test
    void httpFieldsSubResultsAndAssertionsSurvive() throws Exception {
        HTTPSampleResult sent = new HTTPSampleResult();
        fill(sent, "login", false);
        sent.setHTTPMethod("POST");
        sent.setQueryString("user=a&pass=b");
        sent.setCookies("JSESSIONID=1");
        sent.setRedirectLocation("http://127.0.0.1/home");
        AssertionResult failed = new AssertionResult("Response Assertion");
        failed.setFailure(true);
        failed.setFailureMessage("Test failed: text expected to contain /Welcome/");
        sent.addAssertionResult(failed);
        sent.storeSubResult(plain("login-0", true), false);
        sent.storeSubResult(plain("login-1", false), false);

        SampleEvent received = roundTrip(CompactSampleSender.outgoing(new SampleEvent(sent, "Users"), true));

        HTTPSampleResult got = (HTTPSampleResult) received.getResult();
        assertEquals(csv(new SampleEvent(sent, "Users")), csv(received));
        assertEquals("POST", got.getHTTPMethod());
        assertEquals("user=a&pass=b", got.getQueryString());
        assertEquals("JSESSIONID=1", got.getCookies());
        assertEquals("http://127.0.0.1/home", got.getRedirectLocation());
        assertEquals(sent.getSamplerData(), got.getSamplerData());
        assertEquals(1, got.getAssertionResults().length);
        assertTrue(got.getAssertionResults()[0].isFailure());
        assertEquals(failed.getFailureMessage(), got.getAssertionResults()[0].getFailureMessage());
        assertEquals(2, got.getSubResults().length);
        assertEquals("login-1", got.getSubResults()[1].getSampleLabel());
        assertSame(got, got.getSubResults()[1].getParent());
        assertEquals(sent.getSubResults()[1].getBytesAsLong(), got.getSubResults()[1].getBytesAsLong());
        assertArrayEquals(new byte[0], got.getResponseData(), "stripped, as JMeter's Stripped modes do");
        assertEquals(sent.getBytesAsLong(), got.getBytesAsLong(), "bytes counted before stripping");
    }

    @Test
    void aSamplersOwnResultClassTravelsAsItIs() throws Exception {
        SampleResult own = new SampleResult() {
            private static final long serialVersionUID = 1L;
        };
        SampleEvent e = new SampleEvent(own, "Users");
        assertSame(e, CompactSampleSender.outgoing(e, true), "a subclass may hold fields the form does not know");
    }

    @Test
    void aLongHeaderBlockIsNotCutAtWriteUtfsLimit() throws Exception {
        SampleResult sent = plain("big", true);
        sent.setResponseHeaders("X-Long: " + "é".repeat(70_000));
        SampleEvent received = roundTrip(CompactSampleSender.outgoing(new SampleEvent(sent, "Users"), true));
        assertEquals(sent.getResponseHeaders(), received.getResult().getResponseHeaders());
    }

    @Test
    void aBatchOfStampedeLikeResultsIsLessThanHalfJMetersOwnSerialization() throws Exception {
        List<SampleEvent> stock = new ArrayList<>();
        List<SampleEvent> compact = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            SampleResult r = new SampleResult();
            r.setSampleLabel("raw");
            r.setThreadName("Users 1-" + (i % 20));
            r.setStampAndTime(1_763_870_000_123L + i, 3);
            r.setLatency(2);
            r.setSuccessful(true);
            r.setResponseCode("200");
            r.setResponseMessage("OK");
            r.setResponseHeaders("HTTP/1.1 200 OK\r\nServer: nginx\r\nContent-Length: 18\r\n");
            r.setHeadersSize(150);
            r.setBodySize(18L);
            r.setSentBytes(40);
            r.setURL(new URL("http://127.0.0.1:8080/x"));
            stock.add(new SampleEvent(r, "Users"));
            compact.add(CompactSampleSender.outgoing(new SampleEvent(r, "Users"), true));
        }
        int stockBytes = serialize(stock).length;
        int compactBytes = serialize(compact).length;
        assertTrue(compactBytes * 2 < stockBytes, "compact " + compactBytes + " B vs JMeter's " + stockBytes + " B");
    }

    /** A form whose response data claims almost 2 GiB is refused before anything that size is allocated. */
    @Test
    void aHugeClaimedLengthIsRefused() throws Exception {
        SampleResult r = plain("GET /a", false);
        r.setResponseData("ZZZZ".getBytes(StandardCharsets.US_ASCII));
        byte[] b = serialize(new ResultForm(r, false));
        int at = indexOf(b, new byte[] {0, 0, 0, 4, 'Z', 'Z', 'Z', 'Z'});
        b[at] = 0x7f;
        b[at + 1] = (byte) 0xff;
        b[at + 2] = (byte) 0xff;
        b[at + 3] = (byte) 0xf0;
        IOException e = assertThrows(IOException.class, () -> deserialize(b));
        assertTrue(e.getMessage().contains("response data of 2147483632 bytes"), e.getMessage());
    }

    /** A length within the limit but longer than the stream: the stream ends, nothing of the claimed size is held. */
    @Test
    void aLengthLongerThanTheStreamEndsIt() throws Exception {
        SampleResult r = plain("GET /a", false);
        r.setResponseData("ZZZZ".getBytes(StandardCharsets.US_ASCII));
        byte[] b = serialize(new ResultForm(r, false));
        int at = indexOf(b, new byte[] {0, 0, 0, 4, 'Z', 'Z', 'Z', 'Z'});
        b[at + 1] = 0x10; // 1 MiB + 4 claimed, 4 bytes and the rest of the form present
        assertThrows(IOException.class, () -> deserialize(b));
    }

    @Test
    void subResultsNestedDeeperThanTheWriterGoesAreRefused() throws Exception {
        SampleResult root = plain("level 0", true);
        SampleResult parent = root;
        for (int i = 1; i <= 100; i++) {
            SampleResult child = plain("level " + i, true);
            parent.storeSubResult(child, false);
            parent = child;
        }
        byte[] b = serialize(new ResultForm(root, true));
        IOException e = assertThrows(IOException.class, () -> deserialize(b));
        assertTrue(e.getMessage().contains("nested deeper than"), e.getMessage());
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i <= haystack.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new AssertionError("not in the stream");
    }

    static SampleResult plain(String label, boolean success) throws Exception {
        SampleResult r = new SampleResult();
        fill(r, label, success);
        return r;
    }

    private static void fill(SampleResult r, String label, boolean success) throws Exception {
        r.setSampleLabel(label);
        r.setThreadName("Users 1-7");
        r.setStampAndTime(1_763_870_000_123L, 42);
        r.setIdleTime(3);
        r.setLatency(17);
        r.setConnectTime(5);
        r.setSuccessful(success);
        r.setResponseCode(success ? "200" : "Non HTTP response code: java.net.SocketException");
        r.setResponseMessage(success ? "OK" : "Connection reset");
        r.setDataType(SampleResult.TEXT);
        r.setDataEncoding("UTF-8");
        r.setContentType("text/plain; charset=UTF-8");
        r.setResponseData("body".getBytes(StandardCharsets.UTF_8));
        r.setHeadersSize(120);
        r.setBodySize(4L);
        r.setSentBytes(64);
        r.setGroupThreads(200);
        r.setAllThreads(400);
        r.setURL(new URL("http://127.0.0.1:8080/a?x=1"));
        r.setRequestHeaders("Host: 127.0.0.1\nUser-Agent: t\n");
        r.setResponseHeaders("HTTP/1.1 200 OK\nContent-Length: 4\n");
        r.setSamplerData("GET http://127.0.0.1:8080/a?x=1");
    }

    private static String csv(SampleEvent e) {
        SampleSaveConfiguration all = new SampleSaveConfiguration(true);
        return CSVSaveService.resultToDelimitedString(e, e.getResult(), all, ",");
    }

    static byte[] serialize(Object o) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(o);
        }
        return bytes.toByteArray();
    }

    static Object deserialize(byte[] b) throws IOException, ClassNotFoundException {
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(b))) {
            return in.readObject();
        }
    }

    private static SampleEvent roundTrip(SampleEvent e) throws Exception {
        return (SampleEvent) deserialize(serialize(e));
    }
}
