/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.support;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A self-signed certificate and its key, made by openssl in a test's folder for the TLS listeners it starts (the
 * engine accepts any certificate, as stock JMeter does by default).
 *
 * @param certificate PEM certificate ({@code ssl_certificate})
 * @param key PEM private key, unencrypted ({@code ssl_certificate_key})
 */
public record TestCertificate(Path certificate, Path key) {

    /**
     * Makes one in {@code dir} (cert.pem, key.pem) for {@code commonName}, valid for two days.
     *
     * @throws IllegalStateException with openssl's output when it failed
     */
    public static TestCertificate make(Path dir, String commonName) throws IOException, InterruptedException {
        TestCertificate c = new TestCertificate(dir.resolve("cert.pem"), dir.resolve("key.pem"));
        Path out = dir.resolve("openssl.out");
        Process p = new ProcessBuilder("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                "-subj", "/CN=" + commonName, "-keyout", c.key().toString(), "-out", c.certificate().toString())
                .redirectErrorStream(true).redirectOutput(out.toFile()).start();
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IllegalStateException("openssl could not make a test certificate: " + Folders.readQuietly(out));
        }
        return c;
    }

    /** nginx's two directives for this certificate, for a server block. */
    public String nginxDirectives() {
        return "ssl_certificate " + certificate + "; ssl_certificate_key " + key + ";";
    }
}
