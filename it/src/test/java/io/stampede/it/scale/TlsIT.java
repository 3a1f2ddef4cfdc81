/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.scale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.it.support.FreePort;
import io.stampede.it.support.JMeterHome;
import io.stampede.it.support.JMeterRun;
import io.stampede.it.support.Jtl;
import io.stampede.it.support.JtlRow;
import io.stampede.it.support.NginxServer;
import io.stampede.it.support.Plans;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Both samplers over TLS against nginx with a self-signed certificate made by openssl in the test: https with a new
 * connection per request resumes the TLS session and sends SNI, RAW over TLS keeps its connections, and a sampler
 * that verifies certificates refuses the self-signed one. nginx logs what it saw on its side.
 */
class TlsIT {

    private static final int LOOPS = 10;
    private static final String SNI = "stampede.test";

    @TempDir
    Path work;

    @Test
    void httpsAndRawTlsAgainstNginxWithASelfSignedCertificate() throws Exception {
        Path dir = work.resolve("nginx");
        Files.createDirectories(dir);
        run(List.of("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj",
                "/CN=" + SNI, "-keyout", dir.resolve("key.pem").toString(), "-out", dir.resolve("cert.pem").toString()));
        int port = FreePort.loopback();
        String http = "log_format tls '$connection $ssl_session_reused $ssl_server_name $ssl_protocol $request_uri'; "
                + "server { listen 127.0.0.1:" + port + " ssl; root $dir/html; "
                + "ssl_certificate " + dir.resolve("cert.pem") + "; ssl_certificate_key " + dir.resolve("key.pem") + "; "
                + "ssl_session_cache shared:stampede:1m; access_log " + dir.resolve("access.log") + " tls; } ";
        try (NginxServer nginx = NginxServer.start(NginxServer.Options.defaults().withSite(http, ""))) {
            JMeterRun.Result r = JMeterRun.of(JMeterHome.fromStampedeRoot().requirePlugin("stampede-plugins.jar"),
                    Plans.get("scale-tls.jmx"), work.resolve("jmeter"))
                    .property("host", "127.0.0.1")
                    .property("port", port)
                    .property("loops", LOOPS)
                    .property("sni", SNI)
                    .property("conns", 3)
                    .timeout(Duration.ofSeconds(90))
                    .run();
            assertTrue(r.succeeded(), r.describe());
            Jtl jtl = Jtl.read(r.jtl());

            Jtl fresh = jtl.label("https new connection");
            assertEquals(LOOPS, fresh.count());
            assertEquals(0, fresh.errors(), "https with trust-all works");
            for (JtlRow row : fresh.rows()) {
                assertTrue(row.bytes() > NginxServer.TEST_TXT.length(), "headers and body counted: " + row);
                assertTrue(row.url().startsWith("https://127.0.0.1:" + port + "/"), row.url());
            }
            assertTrue(fresh.connectsAboveZero() > 0, "the handshake is part of Connect");

            Jtl raw = jtl.label("raw tls kept");
            assertEquals(LOOPS, raw.count());
            assertEquals(0, raw.errors());

            Jtl verify = jtl.label("https verifying");
            assertEquals(LOOPS, verify.count());
            for (JtlRow row : verify.rows()) {
                assertEquals("Non HTTP response code: javax.net.ssl.SSLHandshakeException", row.responseCode(),
                        row.toString());
            }

            List<String[]> log = Files.readAllLines(dir.resolve("access.log")).stream().map(l -> l.split(" ")).toList();
            List<String[]> newConns = log.stream().filter(f -> f[4].endsWith("s=new")).toList();
            assertEquals(LOOPS, newConns.size());
            assertEquals(LOOPS, new HashSet<>(newConns.stream().map(f -> f[0]).toList()).size(),
                    "keep-alive off: one TLS connection per request");
            assertTrue(newConns.stream().allMatch(f -> f[2].equals(SNI)), "SNI sent on every connection");
            long resumed = newConns.stream().filter(f -> f[1].equals("r")).count();
            assertTrue(resumed >= LOOPS - 2, "TLS sessions resumed on later connections: " + resumed + " of " + LOOPS);
            List<String[]> rawLog = log.stream().filter(f -> f[4].endsWith("s=raw")).toList();
            assertTrue(rawLog.size() >= LOOPS, "raw requests logged: " + rawLog.size());
            assertEquals(3, new HashSet<>(rawLog.stream().map(f -> f[0]).toList()).size(),
                    "RAW over TLS keeps its 3 connections");
        }
    }

    private static void run(List<String> command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, command + ": " + out);
    }
}
