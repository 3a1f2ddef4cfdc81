/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.target;

/** How the built-in target listens and what it serves. */
public record TargetSettings(String bindAddress, int port, int bodySize, int threads, int backlog, int delayMs) {

    /** nginx's test.txt in the classic plans is 18 bytes. */
    public static final int DEFAULT_BODY_SIZE = 18;

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
        if (threads < 1) {
            throw new IllegalArgumentException("target threads must be at least 1");
        }
    }

    /** Without an artificial delay. */
    public TargetSettings(String bindAddress, int port, int bodySize, int threads, int backlog) {
        this(bindAddress, port, bodySize, threads, backlog, 0);
    }

    /** Loopback, a free port, the 18-byte body, one event loop (the injector needs the other cores). */
    public static TargetSettings loopbackDefaults() {
        return new TargetSettings("127.0.0.1", 0, DEFAULT_BODY_SIZE, 1, 4096);
    }
}
