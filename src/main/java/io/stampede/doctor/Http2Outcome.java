/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.doctor;

import io.stampede.names.PluginNames;
import io.stampede.results.ErrorKind;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * What HTTP/2 did to a run, in the doctor's words: stream resets by their error code, GOAWAYs by theirs, protocol
 * errors, and ALPN fallbacks (a note: those samples succeeded, over HTTP/1.1). Read from the failures' messages
 * (the engine names the RFC 9113 error code, e.g. "REFUSED_STREAM (0x7)") and the JTL's protocol column.
 *
 * @param resetsByCode failed samples whose stream the server reset (RST_STREAM), by error code
 * @param goAwaysByCode failed samples not processed because of a GOAWAY, by the GOAWAY's error code
 * @param protocolErrors failed samples whose connection did not speak HTTP/2 as expected
 * @param protocolErrorExample the most frequent protocol error message, or empty
 * @param alpnFallbacks samples that asked for h2 and spoke HTTP/1.1
 * @param pingTimeouts failed samples whose connection was closed as dead after an unanswered PING
 */
public record Http2Outcome(Map<String, Long> resetsByCode, Map<String, Long> goAwaysByCode, long protocolErrors,
        String protocolErrorExample, long alpnFallbacks, long pingTimeouts) {

    /** The engine's code names: "REFUSED_STREAM (0x7)" (StreamResetException.codeName). */
    private static final Pattern CODE = Pattern.compile("([A-Z_]+ \\(0x[0-9a-f]+\\))");
    private static final Map<String, String> RESET_MEANINGS = Map.of(
            "REFUSED_STREAM", "the server refused the stream before processing it (safe to retry): more streams"
                    + " than it allows at once or than it has resources for (nginx http2_max_concurrent_streams,"
                    + " HAProxy tune.h2.max-concurrent-streams)",
            "CANCEL", "the server cancelled the stream (a timeout or a proxy's upstream gone on its side)",
            "INTERNAL_ERROR", "the server hit an internal error on the stream (see its error log)",
            "ENHANCE_YOUR_CALM", "the server throttles this client (too many streams, resets or pings): lower"
                    + " stampede.h2.streams or the rate",
            "PROTOCOL_ERROR", "the server found the request malformed for HTTP/2 (a connection-specific header or an"
                    + " invalid pseudo-header)",
            "FLOW_CONTROL_ERROR", "the stream broke the server's flow-control window",
            "STREAM_CLOSED", "a frame arrived for a stream the server had already closed",
            "HTTP_1_1_REQUIRED", "the server wants this request over HTTP/1.1: use " + PluginNames.PROTOCOL + " http/1.1");

    public Http2Outcome {
        resetsByCode = Map.copyOf(resetsByCode);
        goAwaysByCode = Map.copyOf(goAwaysByCode);
    }

    public static Http2Outcome none() {
        return new Http2Outcome(Map.of(), Map.of(), 0, "", 0, 0);
    }

    /**
     * @param errorsByCode failed samples by "responseCode responseMessage" (RunStatistics.errorsByCode)
     * @param samplesByProtocol samples by the JTL's protocol column
     */
    public static Http2Outcome of(Map<String, Long> errorsByCode, Map<String, Long> samplesByProtocol) {
        Map<String, Long> resets = new TreeMap<>();
        Map<String, Long> goAways = new TreeMap<>();
        long protocol = 0;
        long pings = 0;
        String example = "";
        long exampleCount = 0;
        for (Map.Entry<String, Long> e : errorsByCode.entrySet()) {
            ErrorKind kind = ErrorKind.of(e.getKey(), "");
            if (kind == ErrorKind.HTTP2_STREAM_RESET) {
                resets.merge(code(e.getKey()), e.getValue(), Long::sum);
            } else if (kind == ErrorKind.HTTP2_GOAWAY) {
                goAways.merge(code(e.getKey()), e.getValue(), Long::sum);
            } else if (kind == ErrorKind.HTTP2_PING_TIMEOUT) {
                pings += e.getValue();
            } else if (kind == ErrorKind.HTTP2_PROTOCOL_ERROR) {
                protocol += e.getValue();
                if (e.getValue() > exampleCount) {
                    exampleCount = e.getValue();
                    example = e.getKey();
                }
            }
        }
        return new Http2Outcome(resets, goAways, protocol, example,
                samplesByProtocol.getOrDefault(PluginNames.ALPN_FALLBACK, 0L), pings);
    }

    private static String code(String message) {
        Matcher m = CODE.matcher(message);
        return m.find() ? m.group(1) : "code not given";
    }

    /** The doctor's lines, empty when HTTP/2 caused nothing worth saying. */
    public List<String> lines(long samples) {
        List<String> lines = new ArrayList<>();
        if (!resetsByCode.isEmpty()) {
            lines.add("server: " + share(sum(resetsByCode), samples) + " failed with an HTTP/2 stream reset"
                    + " (RST_STREAM from the server): " + counts(resetsByCode));
            resetsByCode.keySet().stream().sorted().forEach(code -> {
                String meaning = RESET_MEANINGS.get(code.split(" ")[0]);
                if (meaning != null) {
                    lines.add("  " + code + ": " + meaning);
                }
            });
        }
        if (!goAwaysByCode.isEmpty()) {
            lines.add("server: " + share(sum(goAwaysByCode), samples) + " failed after the server's HTTP/2 GOAWAY ("
                    + counts(goAwaysByCode) + "): their streams were above its last stream id, were sent once more"
                    + " on a new connection and not processed there either");
            lines.add("  a server sends GOAWAY when it reloads or stops, and after a connection's request limit (nginx"
                    + " keepalive_requests, which since 1.19.7 also ends HTTP/2 connections); fix: raise that limit,"
                    + " or set stampede.h2.max_requests below it so Stampede reconnects first");
        }
        if (protocolErrors > 0) {
            lines.add("server: " + share(protocolErrors, samples) + " failed with an HTTP/2 protocol error, e.g. "
                    + protocolErrorExample);
            lines.add("  fix: match " + PluginNames.PROTOCOL + " to the server's port: h2c needs a cleartext HTTP/2 port"
                    + " (nginx 'listen PORT http2'), h2 a TLS port offering h2 in ALPN (nginx 'listen PORT ssl http2',"
                    + " HAProxy 'bind ... ssl crt ... alpn h2,http/1.1')");
        }
        if (pingTimeouts > 0) {
            lines.add("server: " + share(pingTimeouts, samples) + " failed because their HTTP/2 connection was closed"
                    + " as dead: nothing came back for two PING intervals, not even the PING's answer");
            lines.add("  the server (or a device between) stopped answering while the socket stayed open: a server"
                    + " overloaded or paused, a firewall or NAT that dropped the flow; check the server's load and"
                    + " logs at those times, or raise stampede.h2.ping_ms if its pauses are expected");
        }
        if (alpnFallbacks > 0) {
            lines.add("note: " + share(alpnFallbacks, samples) + " asked for h2 and spoke HTTP/1.1: the server did not"
                    + " choose h2 in ALPN. Not an error, but those samples measured HTTP/1.1; to test HTTP/2 enable it"
                    + " on the server's TLS port (nginx 'listen 443 ssl http2', HAProxy 'alpn h2,http/1.1')");
        }
        return lines;
    }

    private static long sum(Map<String, Long> m) {
        return m.values().stream().mapToLong(Long::longValue).sum();
    }

    private static String counts(Map<String, Long> m) {
        return m.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder()))
                .map(e -> String.format(Locale.ROOT, "%s %,d", e.getKey(), e.getValue()))
                .collect(Collectors.joining(", "));
    }

    private static String share(long n, long samples) {
        return samples <= 0 ? n + " samples"
                : String.format(Locale.ROOT, "%,d of %,d samples (%.2f%%)", n, samples, 100.0 * n / samples);
    }
}
