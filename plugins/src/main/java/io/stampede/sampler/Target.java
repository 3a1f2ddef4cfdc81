/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sampler;

import io.stampede.engine.tls.Tls;

import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Objects;

/**
 * Where a sampler's requests go: host, port and TLS (null for plain TCP). Connections are kept per target, and a
 * connection group serves one target.
 */
record Target(String host, int port, Tls tls) {

    /** Whether this is host:port with these TLS settings (compared without building a Target). */
    boolean is(String h, int p, Tls t) {
        return port == p && host.equals(h) && Objects.equals(tls, t);
    }

    boolean secure() {
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
}
