/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.http2;

import io.stampede.names.PluginNames;

/**
 * How HTTP/2 connections are set up.
 *
 * @param streamWindow the initial flow-control window of each stream we receive on (SETTINGS_INITIAL_WINDOW_SIZE)
 * @param connectionWindow the receive window of the whole connection (raised with a WINDOW_UPDATE on stream 0)
 * @param maxRequestsPerConnection streams opened on one connection before it is closed gracefully and replaced;
 *                                 0 for no limit (the server's own limit, sent as GOAWAY, applies anyway)
 * @param pingIntervalMillis a PING after this long without a frame from the server, and the connection closed when
 *                           another such interval passes without one (its streams fail); 0 for no PINGs
 */
public record Http2Options(int streamWindow, int connectionWindow, int maxRequestsPerConnection,
                           int pingIntervalMillis) {
    /** 16 MiB per stream and 1 GiB per connection: a 1 MB body is never throttled by our windows. */
    public static final int DEFAULT_STREAM_WINDOW = 16 * 1024 * 1024;
    public static final int DEFAULT_CONNECTION_WINDOW = 1 << 30;

    /**
     * Shorter PING intervals keep nothing alive that 100 ms would not (idle timeouts are seconds) and look like a
     * PING flood to servers that count them.
     */
    public static final int MIN_PING_INTERVAL_MILLIS = 100;

    public static final Http2Options DEFAULTS = new Http2Options(DEFAULT_STREAM_WINDOW, DEFAULT_CONNECTION_WINDOW, 0,
            0);

    public Http2Options {
        if (streamWindow < 65_535 || connectionWindow < 65_535) {
            throw new IllegalArgumentException(PluginNames.H2_WINDOW + ": windows below 65535 bytes (HTTP/2's default) "
                    + "only slow responses down; enter 65535 or more");
        }
        if (maxRequestsPerConnection < 0) {
            throw new IllegalArgumentException(PluginNames.H2_MAX_REQUESTS + ": " + maxRequestsPerConnection
                    + " is negative; enter 0 for no limit or the number of requests per connection");
        }
        if (pingIntervalMillis != 0 && pingIntervalMillis < MIN_PING_INTERVAL_MILLIS) {
            throw new IllegalArgumentException(PluginNames.H2_PING_MS + ": " + pingIntervalMillis + " ms is below "
                    + MIN_PING_INTERVAL_MILLIS + " ms; enter 0 for no PINGs or an interval of " + MIN_PING_INTERVAL_MILLIS
                    + " ms or more, shorter than the idle timeout to outlast (HAProxy's timeout client, a NAT's or"
                    + " firewall's)");
        }
    }
}
