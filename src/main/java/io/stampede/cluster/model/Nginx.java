/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.model;

/**
 * nginx sizing on the realservers; the descriptor limit and listen backlog are derived, never typed twice. http2
 * offers HTTP/2 by ALPN on the TLS ports ({@code listen ... ssl http2}); cleartext ports stay HTTP/1.1.
 */
public record Nginx(String workerProcesses, int workerConnections, int keepaliveRequests, int keepaliveTimeoutSeconds,
        int somaxconn, boolean accessLog, boolean http2) {

    /** Each connection can need a second descriptor (upstream or file), hence 2 x worker_connections. */
    public int workerRlimitNofile() {
        return 2 * workerConnections;
    }
}
