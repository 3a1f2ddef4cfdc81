/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sampler;

import io.stampede.engine.tls.Tls;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Objects;

/**
 * Where a sampler's requests go: host, port, TLS (null for plain TCP) and the local address to connect from (null:
 * the kernel's choice). Connections are kept per target, and a connection group serves one target.
 */
public record Target(String host, int port, Tls tls, InetAddress local) {

    /** A target the kernel chooses the local address for, as the Stampede samplers' are. */
    public Target(String host, int port, Tls tls) {
        this(host, port, tls, null);
    }

    /** Whether this is host:port with these TLS settings (compared without building a Target). */
    boolean is(String h, int p, Tls t) {
        return port == p && local == null && host.equals(h) && Objects.equals(tls, t);
    }

    public boolean secure() {
        return tls != null;
    }

    /** The address to connect to, looked up now. */
    InetSocketAddress resolve() throws UnknownHostException {
        InetSocketAddress a = new InetSocketAddress(host, port);
        if (a.isUnresolved()) {
            throw new UnknownHostException(host);
        }
        return a;
    }

    /** The local address to bind to, or null. */
    InetSocketAddress localAddress() {
        return local == null ? null : new InetSocketAddress(local, 0);
    }
}
