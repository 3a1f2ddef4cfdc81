/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** cluster validate with the real validators (keepalived, haproxy, nginx, nft, systemd-analyze) on the examples. */
class ClusterValidateIT {

    @ParameterizedTest
    @ValueSource(strings = {"lvs/example/rendered", "haproxy/example/rendered", "lvs/example-h2/rendered",
        "haproxy/example-h2/rendered"})
    void checkedInExamplesPassEveryValidator(String dir) throws Exception {
        StampedeJar.Result r = StampedeJar.run(120, "cluster", "validate", dir);
        assertEquals(0, r.exitCode(), r.output());
        assertFalse(r.output().contains("SKIPPED"), "every validator is installed by it/run-tests.sh");
        List<String> expected = dir.startsWith("lvs")
                ? List.of("[keepalived -t -f]", "[nginx -t -q -c]", "[nft -c -f]", "[systemd-analyze verify --man=no]",
                        "[stampede ipvsadm-restore grammar]", "[stampede sysctl.d syntax]")
                : List.of("[keepalived -t -f]", "[haproxy -c -f]", "[nginx -t -q -c]");
        for (String v : expected) {
            assertTrue(r.output().lines().anyMatch(l -> l.startsWith("OK") && l.contains(v)), v + "\n" + r.output());
        }
        if (dir.contains("-h2")) {
            assertTrue(r.output().contains("TLS material not on this machine, checked with a self-signed stand-in: "
                    + (dir.startsWith("lvs") ? "/etc/ssl/certs/web.pem" : "/etc/haproxy/certs/shop.pem")), r.output());
        }
    }

    @Test
    void brokenFilesFailWithTheValidatorsOwnWords(@TempDir Path tmp) throws Exception {
        Path copy = tmp.resolve("rendered");
        StampedeJar.copyTree(StampedeJar.root().resolve("haproxy/example/rendered"), copy);
        Path cfg = copy.resolve("haproxy/ha1/haproxy.cfg");
        Files.writeString(cfg, Files.readString(cfg).replace("default_backend be_nginx", "default_backend nope"));
        Path ka = copy.resolve("haproxy/ha2/keepalived.conf");
        Files.writeString(ka, Files.readString(ka).replace("advert_int 1", "advert_int 1\n    nb_get_retry 3"));
        Path nginx = copy.resolve("realserver/web1/nginx.conf");
        Files.writeString(nginx, Files.readString(nginx).replace("sendfile on;", "sendfile maybe;"));
        StampedeJar.Result r = StampedeJar.run(120, "cluster", "validate", copy.toString());
        assertEquals(1, r.exitCode(), r.output());
        assertTrue(r.output().contains("FAIL    haproxy/ha1/haproxy.cfg"), r.output());
        assertTrue(r.output().contains("FAIL    haproxy/ha2/keepalived.conf"), r.output());
        assertTrue(r.output().contains("FAIL    realserver/web1/nginx.conf"), r.output());
        assertTrue(r.output().contains("OK      haproxy/ha2/haproxy.cfg"), r.output());
        assertTrue(r.output().contains("nope"), "haproxy's own message is shown");
    }
}
