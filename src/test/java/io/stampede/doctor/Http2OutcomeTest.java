/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.doctor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.names.PluginNames;
import io.stampede.results.ErrorKind;
import io.stampede.results.RunStatistics;
import io.stampede.results.Sample;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The doctor's HTTP/2 words, from failures as the engine writes them into the JTL and the protocol column. */
class Http2OutcomeTest {

    private static final String CODE = "Non HTTP response code: io.stampede.engine.";
    private static final String MESSAGE = "Non HTTP response message: ";

    private static Sample failed(String exception, String message) {
        return new Sample(1000, 2, "GET", CODE + exception, MESSAGE + message, false, 1, 1, 2000, 2000, "h2");
    }

    private static RunStatistics run() {
        RunStatistics stats = new RunStatistics();
        for (int i = 0; i < 89; i++) {
            stats.add(new Sample(1000, 2, "GET", "200", "OK", true, 1, 1, 2000, 2000, "h2"));
        }
        for (int stream = 1; stream <= 7; stream += 2) {
            stats.add(failed("StreamResetException", "HTTP/2 stream " + stream + " reset by the server: REFUSED_STREAM (0x7)"));
        }
        stats.add(failed("StreamResetException", "HTTP/2 stream 9 reset by the server: ENHANCE_YOUR_CALM (0xb)"));
        stats.add(failed("GoAwayException", "GOAWAY from the server (NO_ERROR (0x0), last stream 99): stream 101 was"
                + " not processed, and it was already sent once more on a new connection"));
        stats.add(failed("Http2ProtocolException", "The server at 10.0.0.1:80 did not answer in HTTP/2"));
        stats.add(failed("PingTimeoutException", "No frame from the server at 10.0.0.1:80 for 2000 ms, not even the"
                + " answer to a PING sent 1000 ms ago (stampede.h2.ping_ms 1000): the connection was closed as dead"));
        for (int i = 0; i < 3; i++) {
            stats.add(new Sample(1000, 2, "GET", "200", "OK", true, 1, 1, 2000, 2000, PluginNames.ALPN_FALLBACK));
        }
        return stats;
    }

    @Test
    void resetsByCodeGoAwaysProtocolErrorsAndFallbacksAreCounted() {
        RunStatistics stats = run();
        Http2Outcome o = Http2Outcome.of(stats.errorsByCode(), stats.samplesByProtocol());
        assertEquals(Map.of("REFUSED_STREAM (0x7)", 4L, "ENHANCE_YOUR_CALM (0xb)", 1L), o.resetsByCode());
        assertEquals(Map.of("NO_ERROR (0x0)", 1L), o.goAwaysByCode());
        assertEquals(1, o.protocolErrors());
        assertEquals(3, o.alpnFallbacks());
        assertEquals(1, o.pingTimeouts());
    }

    @Test
    void theDiagnosisNamesEachKindWithItsCodeAndTheFallbackAsANote() {
        RunStatistics stats = run();
        RunDiagnosis d = RunDiagnosis.of(stats.errorsByKind(), stats.samples(), Optional.empty(), Optional.empty(),
                Optional.empty(), Http2Outcome.of(stats.errorsByCode(), stats.samplesByProtocol()));
        String all = String.join("\n", d.lines());
        assertTrue(all.contains("server: 5 of 100 samples (5.00%) failed with an HTTP/2 stream reset (RST_STREAM from"
                + " the server): REFUSED_STREAM (0x7) 4, ENHANCE_YOUR_CALM (0xb) 1"), all);
        assertTrue(all.contains("  REFUSED_STREAM (0x7): the server refused the stream before processing it"), all);
        assertTrue(all.contains("failed after the server's HTTP/2 GOAWAY (NO_ERROR (0x0) 1)"), all);
        assertTrue(all.contains("keepalive_requests"), all);
        assertTrue(all.contains("failed with an HTTP/2 protocol error, e.g. " + CODE + "Http2ProtocolException The"
                + " server at 10.0.0.1:80 did not answer in HTTP/2"), all);
        assertTrue(all.contains("note: 3 of 100 samples (3.00%) asked for h2 and spoke HTTP/1.1"), all);
        assertTrue(all.contains("server: 1 of 100 samples (1.00%) failed because their HTTP/2 connection was closed"
                + " as dead: nothing came back for two PING intervals"), all);
        assertFalse(d.injectorSuspected());
        assertEquals(0, stats.errorsByKind().getOrDefault(ErrorKind.OTHER, 0L), "every failure has its HTTP/2 kind");
    }

    @Test
    void nothingHttp2NothingSaid() {
        RunStatistics stats = new RunStatistics();
        stats.add(new Sample(1000, 2, "GET", "200", "OK", true, 1, 1, 2000, 2000, "http/1.1"));
        assertEquals(List.of(), Http2Outcome.of(stats.errorsByCode(), stats.samplesByProtocol()).lines(1));
    }
}
