/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.sys;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;

/**
 * A throwaway self-signed certificate and its key in one PEM file, made by openssl. nginx -t and haproxy -c load
 * the TLS material a configuration names; where the real file lives on the target host only (validate) or the
 * configuration runs on this machine for a test (lab), this file stands in for it. One PEM serves nginx's
 * ssl_certificate and ssl_certificate_key as well as HAProxy's crt.
 */
public final class StandInCertificate {

    private StandInCertificate() {
    }

    /** Writes the PEM to {@code pem}, creating its folder. */
    public static void write(Path pem) throws IOException {
        Path dir = pem.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path key = Files.createTempFile(dir, "stand-in-key", ".pem");
        Path cert = Files.createTempFile(dir, "stand-in-cert", ".pem");
        try {
            ExecResult r = Exec.run(Duration.ofSeconds(60), "openssl", "req", "-x509", "-newkey", "rsa:2048",
                    "-nodes", "-days", "2", "-subj", "/CN=stampede-stand-in", "-keyout", key.toString(),
                    "-out", cert.toString());
            if (!r.ok()) {
                throw new IOException("openssl could not make a stand-in certificate: " + r.output().strip());
            }
            // the temporary file is the owner's only (0600); the move keeps that, so the key is never readable
            Files.writeString(key, Files.readString(cert) + Files.readString(key));
            Files.move(key, pem, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(key);
            Files.deleteIfExists(cert);
        }
    }
}
