/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sampler;

import io.stampede.engine.Exchange;
import io.stampede.engine.Failures;
import io.stampede.engine.KeptBody;
import io.stampede.engine.PreparedRequest;
import io.stampede.engine.ReceivedResponse;
import org.apache.jmeter.samplers.SampleResult;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The one place that fills a SampleResult, for every sampling mode, in JMeter's order: times (start, Connect,
 * Latency, end), the request, then the response (code, message, headers, body, sizes) or the failure, named as
 * JMeter's own HTTP sampler names it ("Non HTTP response code: java.net.ConnectException"). One per sampler clone
 * (so per JMeter thread): it remembers the last reason phrase, headers, Content-Type and body so that a steady
 * stream of identical responses builds no new strings for them (a user of the engine-wide pool's remembers no headers
 * or body: see {@link #ResultFiller(boolean)}).
 *
 * <p>Its static parts are JMeter's conventions written once for every sampler of the jar: the Connect round-up,
 * Latency, the status and sizes (JMeter's HTTP Request on the engine fills the rest of its HTTPSampleResult as stock
 * does), and a failure's wording (the WebSocket and XMPP samplers too).
 */
public final class ResultFiller {
    private static final String CODE_PREFIX = "Non HTTP response code: ";
    private static final String MESSAGE_PREFIX = "Non HTTP response message: ";
    private static final String[] CODES = new String[600];

    static {
        for (int i = 100; i < CODES.length; i++) {
            CODES[i] = Integer.toString(i);
        }
    }

    /** Reason phrases and Content-Type values up to this length are shared by every filler and result. */
    private static final int SHARED_TEXT_MAX = 64;

    private final StampedeVariables variables = StampedeVariables.fromJMeterProperties();
    /** Converts System.nanoTime() instants to the epoch milliseconds of JMeter's time stamps. */
    private final long epochOffsetNanos = System.currentTimeMillis() * 1_000_000L - System.nanoTime();
    private String lastReason = "";
    private String lastContentType;
    /**
     * The last response's header block and body, as bytes and as handed to JMeter (most responses repeat them); null
     * for a filler that remembers nothing between samples ({@link #ResultFiller(boolean)}).
     */
    private final Repeated lastHeaders;
    private final Repeated lastBody;

    /** A filler that compares each response with the last one, so a steady stream builds no new strings. */
    ResultFiller() {
        this(true);
    }

    /**
     * @param remembersLast false for a user of the engine-wide pool: it thinks for seconds between samples, by which
     *                      time the Date header has changed, so a copy of the last response would only be weight
     */
    ResultFiller(boolean remembersLast) {
        lastHeaders = remembersLast ? new Repeated() : null;
        lastBody = remembersLast ? new Repeated() : null;
    }

    /**
     * Fills {@code res} from a completed exchange, of any protocol.
     *
     * @param startNanos when the sample began (System.nanoTime()): the connect, the write or the thread's send
     */
    void fill(SampleResult res, Exchange e, long startNanos) {
        fill(res, e, startNanos, 0);
    }

    /**
     * Fills {@code res} from an exchange that first waited {@code waitNanos} for a connection of a shared pool. The
     * wait is in the elapsed time and Latency, and, when no connection was opened, in Connect (as stock JMeter
     * reports a wait for a pooled connection).
     */
    void fill(SampleResult res, Exchange e, long startNanos, long waitNanos) {
        IOException failure = e.failure();
        long doneNanos = e.doneNanos();
        long end = failure != null || doneNanos == 0 ? System.nanoTime() : doneNanos;
        long connectNanos = e.connectNanos();
        long connect = connectNanos > 0 ? connectMillis(connectNanos) : waitNanos / 1_000_000L;
        // A new connection shows Connect >= 1 ms, and elapsed is never shorter than Connect.
        res.setStampAndTime((startNanos + epochOffsetNanos) / 1_000_000L,
                Math.max(connect, (end - startNanos) / 1_000_000L));
        PreparedRequest sent = e.requestShown();
        res.setURL(sent.url());
        res.setSamplerData(sent.text());
        if (failure != null) {
            failed(res, failure);
        } else {
            res.setConnectTime(connect);
            res.setLatency(latencyMillis(startNanos, e.firstByteNanos()));
            res.setSentBytes(e.sentBytes());
            response(res, e.response());
        }
        variables.put(end - startNanos, end - e.intendedNanos(), e.negotiated());
    }

    /**
     * A sample that could not start (a setting, an unknown host, an interrupt): zero length, the failure named, and
     * the thread's stampede_* variables set for this row (they would otherwise repeat the previous sample's figures,
     * which the latency histogram reads).
     */
    SampleResult notStarted(SampleResult res, Throwable t) {
        return notSent(res, System.nanoTime(), t);
    }

    /** A sample that failed before its request went out, after waiting since {@code startNanos} (for a pool). */
    SampleResult notSent(SampleResult res, long startNanos, Throwable t) {
        long end = System.nanoTime();
        res.setStampAndTime((startNanos + epochOffsetNanos) / 1_000_000L, (end - startNanos) / 1_000_000L);
        failed(res, t);
        variables.put(end - startNanos, end - startNanos, "");
        return res;
    }

    /**
     * JMeter's columns are whole milliseconds, and a loopback or LAN connect takes a fraction of one: rounded down,
     * a new connection would be indistinguishable from a reused one. So a sample that opened a connection reports
     * Connect of at least 1 ms (rounded up), and the JTL's Connect > 0 marks exactly the samples that connected.
     */
    public static long connectMillis(long nanos) {
        return Math.max(1, (nanos + 999_999L) / 1_000_000L);
    }

    /** Latency: the first response byte, from the sample's start (System.nanoTime() instants). */
    public static long latencyMillis(long startNanos, long firstByteNanos) {
        return Math.max(0, (firstByteNanos - startNanos) / 1_000_000L);
    }

    /** The response's status as its code, and its header and body bytes as they crossed the wire. */
    public static void statusAndSizes(SampleResult res, int status, long headerBytes, long bodyBytes) {
        res.setResponseCode(status >= 0 && status < CODES.length ? CODES[status] : Integer.toString(status));
        res.setHeadersSize((int) Math.min(Integer.MAX_VALUE, headerBytes));
        res.setBodySize(bodyBytes);
    }

    /**
     * A failed sample as JMeter's HTTP samplers write it ("Non HTTP response code: java.net.ConnectException"), the
     * failure named by the engine ({@link Failures#name}).
     */
    public static void failed(SampleResult res, Throwable t) {
        failed(res, Failures.name(t), t);
    }

    /** As {@link #failed(SampleResult, Throwable)}, for a failure the sampler names itself. */
    public static void failed(SampleResult res, Failures.Name name, Throwable t) {
        res.setResponseCode(CODE_PREFIX + name.className());
        res.setResponseMessage(MESSAGE_PREFIX + name.message());
        res.setResponseData(String.valueOf(t), StandardCharsets.UTF_8.name());
        res.setSuccessful(false);
    }

    private void response(SampleResult res, ReceivedResponse r) {
        int status = r.status();
        statusAndSizes(res, status, r.headerBytes(), r.bodyBytes());
        if (!r.reasonEquals(lastReason)) {
            lastReason = shared(r.reason());
        }
        res.setResponseMessage(lastReason);
        if (lastHeaders == null) {
            res.setResponseHeaders(new String(r.headerBlock(), 0, r.headerBlockLength(), StandardCharsets.ISO_8859_1));
        } else {
            if (!lastHeaders.sameAs(r.headerBlock(), r.headerBlockLength())) {
                lastHeaders.text = new String(r.headerBlock(), 0, r.headerBlockLength(), StandardCharsets.ISO_8859_1);
            }
            res.setResponseHeaders(lastHeaders.text);
        }
        if (!r.contentTypeEquals(lastContentType)) {
            lastContentType = shared(r.contentType());
        }
        if (lastContentType != null) {
            res.setContentType(lastContentType);
        }
        // Shared between results while identical: JMeter replaces response data, it never writes into it.
        if (lastBody == null) {
            res.setResponseData(r.keptBody());
        } else {
            res.setResponseData(lastBody.sameAs(r.keptBodyBuffer(), r.keptBodyLength()) ? lastBody.data
                    : lastBody.made(r.keptBody()));
        }
        res.setSuccessful(status >= 200 && status < 400);
    }

    /**
     * The JVM's one copy of a short reason phrase or Content-Type ("OK", "text/html"): every user's filler and the
     * result JMeter keeps for each user would otherwise hold a copy of their own (interned strings are collected once
     * unused, so a server that varies them fills nothing).
     */
    private static String shared(String text) {
        return text == null || text.length() > SHARED_TEXT_MAX ? text : text.intern();
    }

    /** The body bytes kept for comparison with the next response, for tests of what a sampler holds. */
    long heldBodyBytes() {
        return lastBody == null ? 0 : lastBody.held();
    }

    /** Whether a response is kept for comparison with the next one. */
    boolean keepsLastResponse() {
        return lastHeaders != null && (lastHeaders.length >= 0 || lastBody.length >= 0);
    }

    /** Whether this filler has room to remember a response at all, for tests of what a pooled user holds. */
    boolean remembersLast() {
        return lastHeaders != null;
    }

    /**
     * The last bytes seen and what was made of them. The Date header changes once a second, so a steady stream of
     * responses makes one header string per second instead of one per response.
     */
    private static final class Repeated {
        private static final byte[] NONE = new byte[0];
        private byte[] bytes = NONE;
        private int length = -1;
        String text;
        byte[] data;

        /**
         * Whether {@code b[0..n)} equals the last bytes; if not, remembers them (the caller then makes the rest). Bytes
         * over {@link KeptBody#RETAINED_CAPACITY} are not remembered: a large body rarely repeats, and its copy would
         * stay with the sampler for the rest of the run.
         */
        boolean sameAs(byte[] b, int n) {
            if (n == length && Arrays.equals(b, 0, n, bytes, 0, n)) {
                return true;
            }
            if (n > KeptBody.RETAINED_CAPACITY) {
                forget();
                return false;
            }
            if (bytes.length < n) {
                bytes = new byte[Math.min(KeptBody.RETAINED_CAPACITY, Math.max(n, bytes.length * 2))];
            }
            System.arraycopy(b, 0, bytes, 0, n);
            length = n;
            return false;
        }

        /** Keeps {@code made} for the next equal bytes, if these were remembered; returns it. */
        byte[] made(byte[] made) {
            data = length >= 0 ? made : null;
            return made;
        }

        /** The bytes this holds between samples, for tests. */
        long held() {
            return bytes.length + (data == null ? 0 : data.length);
        }

        void forget() {
            bytes = NONE;
            length = -1;
            text = null;
            data = null;
        }
    }
}
