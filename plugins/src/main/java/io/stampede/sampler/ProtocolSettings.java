/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sampler;

import io.stampede.engine.http2.Http2Options;
import io.stampede.engine.HttpProtocol;
import io.stampede.names.PluginNames;
import java.util.function.UnaryOperator;

/**
 * The protocol a Stampede sampler speaks and the concurrency it asks for, read from its fields by name. Free of
 * JMeter on purpose: {@code stampede run} and {@code stampede doctor} check a plan's samplers with these same rules
 * and words before anything starts, so a bad value is one message before the run, not a failed sample per request.
 *
 * @param protocol http/1.1, h2 or h2c
 * @param connections connections per JMeter thread
 * @param streams HTTP/2 streams in flight per connection; 1 for HTTP/1.1
 * @param pacingMillis HTTP/1.1: interval per connection, 0 for none
 * @param targetRate HTTP/1.1: requests/s of the thread, 0 for none
 * @param pipelineDepth HTTP/1.1: requests on the wire per connection
 * @param http2 HTTP/2's connection options (the defaults for HTTP/1.1)
 */
public record ProtocolSettings(HttpProtocol protocol, int connections, int streams, long pacingMillis,
                               double targetRate, int pipelineDepth, Http2Options http2) {

    /** With HTTP/2 the thread's connections are one group, so fewer than HTTP/1.1 allows. */
    static final int MAX_HTTP2_CONNECTIONS = 100_000;
    static final int MAX_CONNECTIONS = 1_000_000;
    static final int MAX_STREAMS = 10_000;
    static final int MAX_PIPELINE_DEPTH = 1024;

    /**
     * Reads the settings.
     *
     * @param field a field's value by its property name, "" when it is not set
     * @throws IllegalArgumentException naming the field and the fix
     */
    public static ProtocolSettings read(UnaryOperator<String> field) {
        HttpProtocol protocol = HttpProtocol.parse(PluginNames.PROTOCOL, field.apply(PluginNames.PROTOCOL));
        if (protocol.http2()) {
            return http2(protocol, field);
        }
        return new ProtocolSettings(protocol,
                PropertyNumbers.whole(PluginNames.CONNECTIONS_PER_THREAD,
                        field.apply(PluginNames.CONNECTIONS_PER_THREAD), 1, 1, MAX_CONNECTIONS), 1,
                PropertyNumbers.whole(PluginNames.PACING_MS, field.apply(PluginNames.PACING_MS), 0, 0,
                        Integer.MAX_VALUE),
                PropertyNumbers.rate(PluginNames.TARGET_RATE, field.apply(PluginNames.TARGET_RATE)),
                PropertyNumbers.whole(PluginNames.PIPELINE_DEPTH, field.apply(PluginNames.PIPELINE_DEPTH), 1, 1,
                        MAX_PIPELINE_DEPTH),
                Http2Options.DEFAULTS);
    }

    /**
     * HTTP/2: connections x streams per thread. Pacing, target rate, pipelining and source addresses are HTTP/1.1
     * connection-group settings; they are refused by name, not ignored.
     */
    private static ProtocolSettings http2(HttpProtocol protocol, UnaryOperator<String> field) {
        for (String p : new String[] {PluginNames.PACING_MS, PluginNames.TARGET_RATE,
            PluginNames.PIPELINE_DEPTH, PluginNames.SOURCE_ADDRESSES}) {
            String v = field.apply(p).trim();
            if (!v.isEmpty() && !v.equals("0") && !(p.equals(PluginNames.PIPELINE_DEPTH) && v.equals("1"))) {
                throw new IllegalArgumentException(p + " is an HTTP/1.1 setting and is not supported with "
                        + PluginNames.PROTOCOL + " " + protocol.id() + "; leave it empty (with HTTP/2 use "
                        + PluginNames.H2_STREAMS + " and " + PluginNames.CONNECTIONS_PER_THREAD
                        + " for concurrency)");
            }
        }
        int connections = PropertyNumbers.whole(PluginNames.CONNECTIONS_PER_THREAD,
                field.apply(PluginNames.CONNECTIONS_PER_THREAD), 1, 1, MAX_HTTP2_CONNECTIONS);
        int streams = PropertyNumbers.whole(PluginNames.H2_STREAMS, field.apply(PluginNames.H2_STREAMS), 1, 1,
                MAX_STREAMS);
        return new ProtocolSettings(protocol, connections, streams, 0, 0, 1, http2Options(field));
    }

    /**
     * HTTP/2's connection options ({@code stampede.h2.window}, {@code stampede.h2.max_requests},
     * {@code stampede.h2.ping_ms}); JMeter's HTTP Request on the engine reads them by the same rule.
     *
     * @throws IllegalArgumentException naming the field and the fix
     */
    public static Http2Options http2Options(UnaryOperator<String> field) {
        return new Http2Options(
                PropertyNumbers.whole(PluginNames.H2_WINDOW, field.apply(PluginNames.H2_WINDOW),
                        Http2Options.DEFAULT_STREAM_WINDOW, 65_535, Integer.MAX_VALUE),
                Http2Options.DEFAULT_CONNECTION_WINDOW,
                PropertyNumbers.whole(PluginNames.H2_MAX_REQUESTS, field.apply(PluginNames.H2_MAX_REQUESTS),
                        0, 0, Integer.MAX_VALUE),
                PropertyNumbers.whole(PluginNames.H2_PING_MS, field.apply(PluginNames.H2_PING_MS), 0, 0,
                        Integer.MAX_VALUE));
    }

    /**
     * Refuses a protocol that does not match the sampler's transport: h2 is HTTP/2 over TLS, h2c over cleartext.
     *
     * @param secure whether the sampler is set to TLS
     * @param tlsHint how to turn TLS on for this sampler, e.g. "tick TLS (stampede.tls)"
     * @throws IllegalArgumentException naming the field and the fix
     */
    public void requireTransport(boolean secure, String tlsHint) {
        if (protocol == HttpProtocol.H2 && !secure) {
            throw new IllegalArgumentException(PluginNames.PROTOCOL + ": h2 is HTTP/2 over TLS; " + tlsHint
                    + ", or use h2c for HTTP/2 over cleartext");
        }
        if (protocol == HttpProtocol.H2C && secure) {
            throw new IllegalArgumentException(PluginNames.PROTOCOL + ": h2c is HTTP/2 over cleartext, but this"
                    + " sampler is set to TLS; use h2 for HTTP/2 over TLS");
        }
    }
}
