/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.stampede.cluster.Fixtures;
import io.stampede.cluster.render.ClusterRenderer;
import io.stampede.cluster.render.RenderedFile;
import io.stampede.cluster.sys.Exec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** TLS material that lives on the target hosts only: the real tools judge the rest with a stand-in, and say so. */
class StandInTlsValidatorTest {

    private static final String H2 = Fixtures.HAPROXY.replace("vip: 10.0.0.100\n", "vip: 10.0.0.100\nports: [80, 443]\n"
            + "tls: {certificate: /nonexistent/stampede/site.pem}\n").replace("maxconn: 9000", "maxconn: 9000\n  http2: true");

    @TempDir
    Path tmp;

    @Test
    void findsTheTlsPathsOfNginxAndHaproxyFiles() {
        assertEquals(List.of("/a/c.pem", "/a/k.pem"), StandInTlsValidator.tlsPaths(
                "    ssl_certificate /a/c.pem;\n    ssl_certificate_key /a/k.pem;\n    # ssl_certificate /x.pem;\n"));
        assertEquals(List.of("/h/site.pem"), StandInTlsValidator.tlsPaths(
                "    bind 10.0.0.1:443 ssl crt /h/site.pem alpn h2,http/1.1 backlog 4096\n    bind 10.0.0.1:80\n"));
    }

    @Test
    void missingCertificatesAreReplacedByAStandInAndNamedInTheVerdict() throws IOException {
        assumeTrue(Exec.available("haproxy") && Exec.available("nginx") && Exec.available("openssl"),
                "haproxy, nginx and openssl are installed by it/run-tests.sh");
        Map<String, String> files = write(H2);
        List<Verdict> verdicts = new ClusterValidator().validate(tmp);
        for (String name : List.of("haproxy/ha1/haproxy.cfg", "realserver/web1/nginx.conf")) {
            Verdict v = verdicts.stream().filter(x -> x.file().equals(name)).findFirst().orElseThrow();
            assertEquals(Verdict.Status.OK, v.status(), v.toString());
            if (files.get(name).contains("/nonexistent/stampede/site.pem")) {
                assertTrue(v.detail().contains("stand-in: /nonexistent/stampede/site.pem"), v.toString());
            }
        }
        assertTrue(files.get("haproxy/ha1/haproxy.cfg").contains("alpn h2,http/1.1"));
    }

    @Test
    void theStandInDoesNotHideAnError() throws IOException {
        assumeTrue(Exec.available("haproxy") && Exec.available("openssl"), "haproxy and openssl are installed");
        write(H2);
        Path cfg = tmp.resolve("haproxy/ha1/haproxy.cfg");
        Files.writeString(cfg, Files.readString(cfg).replace("alpn h2,http/1.1", "alpn h2,http/1.1 bogus-keyword"));
        Verdict v = new ClusterValidator().validate(tmp).stream().filter(x -> x.file().equals("haproxy/ha1/haproxy.cfg"))
                .findFirst().orElseThrow();
        assertEquals(Verdict.Status.FAIL, v.status(), v.toString());
        assertTrue(v.detail().contains("bogus-keyword") && v.detail().contains("/nonexistent/stampede/site.pem"),
                v.toString());
    }

    private Map<String, String> write(String yaml) throws IOException {
        List<RenderedFile> files = new ClusterRenderer().render(Fixtures.spec(yaml));
        for (RenderedFile f : files) {
            Path p = tmp.resolve(f.relativePath());
            Files.createDirectories(p.getParent());
            Files.writeString(p, f.content());
        }
        return files.stream().collect(Collectors.toMap(RenderedFile::relativePath, RenderedFile::content));
    }
}
