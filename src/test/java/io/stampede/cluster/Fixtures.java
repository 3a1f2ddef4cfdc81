/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster;

import io.stampede.cluster.model.ClusterSpec;
import io.stampede.cluster.model.SpecException;
import io.stampede.cluster.model.SpecReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Descriptions the tests start from: small, valid, and easy to break one field at a time. */
public final class Fixtures {

    public static final String LVS = """
            name: web
            vip: 10.0.0.100
            directors:
              master: {name: lvs1, address: 10.0.0.2}
              backup: {name: lvs2, address: 10.0.0.3}
            realservers:
              - {name: web1, address: 10.0.0.11}
              - {name: web2, address: 10.0.0.12, arp_method: nft}
              - {name: web3, address: 10.0.0.13, arp_method: arptables, weight: 3}
            """;

    public static final String HAPROXY = """
            name: shop
            vip: 10.0.0.100
            haproxy:
              nodes:
                - {name: ha1, address: 10.0.0.5}
                - {name: ha2, address: 10.0.0.6}
              maxconn: 9000
            realservers:
              - {name: web1, address: 10.0.0.11}
              - {name: web2, address: 10.0.0.12, port: 8080}
            """;

    private Fixtures() {
    }

    public static ClusterSpec spec(String yaml) {
        try {
            return new SpecReader().read(yaml);
        } catch (SpecException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    /** The repository root: tests run in the src/ module folder. */
    public static Path repo() {
        Path here = Path.of("").toAbsolutePath();
        return Files.isDirectory(here.resolve("lvs")) ? here : here.getParent();
    }

    public static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
