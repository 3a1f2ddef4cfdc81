/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.websocket;

import io.stampede.engine.Failures;
import io.stampede.engine.websocket.WebSocketCall;
import io.stampede.engine.websocket.WebSocketMessage;
import io.stampede.sampler.ResultFiller;
import org.apache.jmeter.samplers.SampleResult;

import java.util.List;

/**
 * Fills a SampleResult from a completed {@link WebSocketCall}, with JMeter's conventions: the handshake is a 101
 * whose elapsed time is also its Connect; a message sample's elapsed time is its own latency (write, reply or
 * wait); bytes are those that crossed the wire during the call; a failure reads
 * {@code Non HTTP response code: <exception class>} as JMeter's HTTP samplers write it.
 */
final class WebSocketResults {
    /** Converts System.nanoTime() instants to epoch milliseconds. */
    private final long epochOffsetNanos = System.currentTimeMillis() * 1_000_000L - System.nanoTime();

    void fill(SampleResult res, WebSocketCall c, String url, String samplerData) {
        long start = start(c);
        long end = end(c);
        res.setStampAndTime(epochMillis(start), Math.max(0, (end - start) / 1_000_000L));
        res.setSamplerData(samplerData);
        if (url != null) {
            try {
                res.setURL(new java.net.URL(url.replaceFirst("^ws", "http")));
            } catch (java.net.MalformedURLException ignored) {
                // The URL was checked when the session was opened.
            }
        }
        if (c.kind() == WebSocketCall.Kind.OPEN) {
            res.setConnectTime(ResultFiller.connectMillis(end - start));
            if (c.firstByteNanos() != 0) {
                res.setLatency(ResultFiller.latencyMillis(start, c.firstByteNanos()));
            }
            if (c.responseHead() != null) {
                res.setResponseHeaders(c.responseHead());
            }
        } else {
            res.setLatency(res.getTime());
        }
        if (c.failure() != null) {
            failure(res, c.failure());
            bytes(res, c);
            return;
        }
        res.setSuccessful(true);
        switch (c.kind()) {
            case OPEN -> {
                res.setResponseCode(c.status() == 0 ? "101" : Integer.toString(c.status()));
                res.setResponseMessage(c.statusText() == null ? "Switching Protocols (session already open)"
                        : c.statusText());
            }
            case CLOSE -> {
                res.setResponseCode(c.status() == 0 ? "" : Integer.toString(c.status()));
                res.setResponseMessage(c.statusText() == null || c.statusText().isEmpty() ? "Closed"
                        : c.statusText());
            }
            case SEND -> res.setResponseMessage(unsolicited(c, "Sent"));
            default -> {
                WebSocketMessage m = c.reply();
                res.setResponseMessage(unsolicited(c, "Received"));
                if (m != null) {
                    res.setResponseData(m.data());
                    res.setDataType(m.isText() ? SampleResult.TEXT : SampleResult.BINARY);
                }
            }
        }
        bytes(res, c);
        List<WebSocketMessage> kept = c.unsolicitedKept();
        if (kept != null) {
            for (WebSocketMessage m : kept) {
                SampleResult sub = new SampleResult(epochMillis(m.firstByteNanos()), 0);
                sub.setSampleLabel(res.getSampleLabel() + " (unsolicited)");
                sub.setResponseData(m.data());
                sub.setDataType(m.isText() ? SampleResult.TEXT : SampleResult.BINARY);
                sub.setBytes((long) m.data().length);
                sub.setSuccessful(true);
                res.addRawSubResult(sub);
            }
        }
    }

    /**
     * The bytes that crossed the wire during the call, frame headers included; JMeter would otherwise count the
     * response data's length.
     */
    private static void bytes(SampleResult res, WebSocketCall c) {
        res.setSentBytes(c.bytesOut());
        res.setHeadersSize(0);
        res.setBodySize(c.bytesIn());
        res.setBytes(c.bytesIn());
    }

    private static String unsolicited(WebSocketCall c, String what) {
        return c.unsolicited() == 0 ? what : what + "; " + c.unsolicited() + " unsolicited messages so far ("
                + c.dropped() + " not kept)";
    }

    /** The handshake from its intended time; a reply from the end of its send; the rest from their start. */
    private static long start(WebSocketCall c) {
        long s = c.startNanos() != 0 ? c.startNanos() : c.intendedNanos();
        if (c.kind() == WebSocketCall.Kind.OPEN) {
            return c.intendedNanos() != 0 ? Math.min(c.intendedNanos(), s) : s;
        }
        if (c.kind() == WebSocketCall.Kind.SEND_AND_WAIT && c.sentNanos() != 0) {
            return c.sentNanos();
        }
        return s;
    }

    private static long end(WebSocketCall c) {
        if (c.failure() == null) {
            if ((c.kind() == WebSocketCall.Kind.SEND_AND_WAIT || c.kind() == WebSocketCall.Kind.WAIT)
                    && c.firstByteNanos() != 0) {
                return c.firstByteNanos();
            }
            if (c.kind() == WebSocketCall.Kind.SEND && c.sentNanos() != 0) {
                return c.sentNanos();
            }
        }
        return c.doneNanos() != 0 ? c.doneNanos() : System.nanoTime();
    }

    long epochMillis(long nanos) {
        return (nanos + epochOffsetNanos) / 1_000_000L;
    }

    /** A sample that could not start (a setting, an unknown host, a session not opened). */
    SampleResult notStarted(SampleResult res, Throwable t) {
        res.setStampAndTime(System.currentTimeMillis(), 0);
        failure(res, t);
        return res;
    }

    static void failure(SampleResult res, Throwable t) {
        // Ours are named as they are; anything else as the engine names transport errors.
        ResultFiller.failed(res, t.getClass().getPackageName().equals(WebSocketCall.class.getPackageName())
                ? new Failures.Name(t.getClass().getName(), t.getMessage()) : Failures.name(t), t);
    }
}
