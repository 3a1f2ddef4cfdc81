/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.model;

/**
 * The HAProxy layer: its nodes (a VRRP pair holding the VIP) and its sizing. http2 offers HTTP/2 to clients by ALPN
 * on the front end's TLS binds ({@code alpn h2,http/1.1}); the backend keeps HTTP/1.1 to nginx.
 */
public record Haproxy(Vrrp vrrp, int threads, int maxconn, int serverMaxconn, String balance, String httpReuse,
        int statsPort, boolean statsOnNode, String statsAuth, boolean http2) {

    /** The ALPN list of a TLS bind with http2: h2 first, HTTP/1.1 for clients without HTTP/2 (configuration.txt). */
    public static final String ALPN = "h2,http/1.1";

    /** HAProxy 2.6 as Debian builds it: "Built with multi-threading support (MAX_THREADS=64" (haproxy -vv). */
    public static final int MAX_THREADS = 64;
    /** A server weight runs from 0 to 256 in HAProxy (configuration manual, server option "weight"). */
    public static final int MAX_WEIGHT = 256;
    /** HAProxy answers this URI itself (monitor-uri) while it runs; keepalived's vrrp_script asks it. */
    public static final String MONITOR_URI = "/haproxy-health";

    /** Where the stats page listens on a node: its own address only with auth, otherwise loopback. */
    public Ipv4 statsAddress(Host node) {
        return statsOnNode ? node.address() : Ipv4.LOOPBACK;
    }

    /** Connections kept back from the web frontend so the stats page and health checks still get through. */
    public static final int RESERVED_CONNECTIONS = 100;

    public int frontendMaxconn() {
        return maxconn - RESERVED_CONNECTIONS;
    }

    /** HAProxy needs two descriptors per proxied connection plus its own (measured: 9000 -> 18032). */
    public int fileDescriptorNeed() {
        return 2 * maxconn + 1000;
    }
}
