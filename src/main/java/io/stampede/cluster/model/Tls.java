/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.model;

import java.util.List;

/**
 * TLS material for the ports served over TLS: nginx terminates it on DR realservers (ssl_certificate and
 * ssl_certificate_key, which may be one PEM file), HAProxy on its nodes (bind ... ssl crt, one PEM holding the
 * certificate and its key).
 */
public record Tls(String certificate, String key, List<Integer> ports) {

    public Tls {
        ports = List.copyOf(ports);
    }

    public boolean covers(int port) {
        return ports.contains(port);
    }
}
