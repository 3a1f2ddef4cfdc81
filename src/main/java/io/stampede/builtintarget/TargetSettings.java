/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.builtintarget;

/**
 * How the built-in target listens, what it serves, and the bounds that keep one client from exhausting it.
 *
 * @param maxConnections connections open at once; one more is answered 503 and closed
 * @param idleTimeoutSeconds a connection that neither sent nor took a byte for this long is closed; 0 never
 */
public record TargetSettings(String bindAddress, int port, int bodySize, int threads, int backlog, int delayMs,
                             int maxConnections, int idleTimeoutSeconds) {

    /** nginx's test.txt in the classic plans is 18 bytes. */
    public static final int DEFAULT_BODY_SIZE = 18;
    /** Half the machine's open-file limit (20000), far above the connections of a benchmark on one machine. */
    public static final int DEFAULT_MAX_CONNECTIONS = 10_000;
    public static final int MAX_MAX_CONNECTIONS = 1_000_000;
    /** nginx's keepalive_timeout is 75 s; a minute is as patient with a load test's idle connections. */
    public static final int DEFAULT_IDLE_TIMEOUT_SECONDS = 60;
    public static final int MAX_IDLE_TIMEOUT_SECONDS = 86_400;

    public TargetSettings {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("--port " + port + " is not a TCP port: use 0 (any free port) to 65535");
        }
        if (bodySize < 0 || bodySize > 64 * 1024 * 1024) {
            throw new IllegalArgumentException("--body-size " + bodySize + " is out of range: use 0 to 67108864 bytes");
        }
        if (delayMs < 0 || delayMs > 60_000) {
            throw new IllegalArgumentException("--delay-ms " + delayMs + " is out of range: use 0 to 60000");
        }
        if (maxConnections < 1 || maxConnections > MAX_MAX_CONNECTIONS) {
            throw new IllegalArgumentException("--max-connections " + maxConnections + " is out of range: use 1 to "
                    + MAX_MAX_CONNECTIONS + " (default " + DEFAULT_MAX_CONNECTIONS + ")");
        }
        if (idleTimeoutSeconds < 0 || idleTimeoutSeconds > MAX_IDLE_TIMEOUT_SECONDS) {
            throw new IllegalArgumentException("--idle-timeout " + idleTimeoutSeconds + " is out of range: use 0 "
                    + "(never) to " + MAX_IDLE_TIMEOUT_SECONDS + " seconds (default " + DEFAULT_IDLE_TIMEOUT_SECONDS
                    + ")");
        }
        if (threads < 1) {
            throw new IllegalArgumentException("target threads must be at least 1");
        }
    }

    /** Without an artificial delay, with the default bounds. */
    public TargetSettings(String bindAddress, int port, int bodySize, int threads, int backlog) {
        this(bindAddress, port, bodySize, threads, backlog, 0, DEFAULT_MAX_CONNECTIONS, DEFAULT_IDLE_TIMEOUT_SECONDS);
    }

    /** Loopback, a free port, the 18-byte body, one event loop (the injector needs the other cores). */
    public static TargetSettings loopbackDefaults() {
        return new TargetSettings("127.0.0.1", 0, DEFAULT_BODY_SIZE, 1, 4096);
    }
}
