/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.tls;

import io.netty.handler.codec.http2.Http2SecurityUtil;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.SupportedCipherSuiteFilter;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.function.Supplier;
import javax.net.ssl.SSLException;

/**
 * The engine's TLS client contexts, the one factory for every protocol: for HTTP/1.1 (JDK provider, no ALPN) and for
 * HTTP/2 ({@code h2,http/1.1} offered in ALPN, RFC 7301, with the cipher suites HTTP/2 allows, RFC 9113 §9.2.2), each
 * verifying the server or trusting any certificate. A context is made at first use and then shared by every
 * connection of its kind, so that one session cache per kind lets later connections resume their TLS session.
 *
 * <p>HTTP/2's TLS runs on BoringSSL (netty-tcnative, shaded into the plugin jar for Linux x86-64) where its library
 * loads: next to the JDK's SSLEngine it took a third to a half less CPU per h2 request (it/bench/RESULTS.md).
 * Elsewhere, or with {@code -Dio.stampede.shaded.io.netty.handler.ssl.noOpenSsl=true}, the JDK's TLS is used, and
 * the engine says so once in the log. HTTP/1.1 keeps the JDK's TLS. Long-lived sessions of other protocols (XMPP's
 * STARTTLS) take BoringSSL too, without ALPN: a handshake costs no JIT warm-up, and the state of thousands of mostly
 * idle sessions lives outside the heap.
 */
public final class TlsContexts {
    /** Made at first use; by {@link #index}. Guarded by itself. */
    private final SslContext[] contexts = new SslContext[6];

    /**
     * The shared context of one kind.
     *
     * @param alpn whether it offers h2 then http/1.1 in ALPN (HTTP/2's); else no ALPN (HTTP/1.1's)
     * @param trustAll whether any certificate is accepted (and the host name not checked)
     */
    public SslContext get(boolean alpn, boolean trustAll) {
        return shared(index(alpn, trustAll), () -> create(alpn, trustAll, alpn ? Provider.CHOSEN : SslProvider.JDK));
    }

    /**
     * The shared context of long-lived sessions of protocols other than HTTP: no ALPN, on BoringSSL where it loads.
     *
     * @param trustAll whether any certificate is accepted (and the host name not checked)
     */
    public SslContext forSessions(boolean trustAll) {
        return shared(4 + (trustAll ? 1 : 0), () -> create(false, trustAll, Provider.CHOSEN));
    }

    private SslContext shared(int i, Supplier<SslContext> create) {
        synchronized (contexts) {
            SslContext c = contexts[i];
            if (c == null) {
                c = create.get();
                contexts[i] = c;
            }
            return c;
        }
    }

    private static int index(boolean alpn, boolean trustAll) {
        return (alpn ? 2 : 0) + (trustAll ? 1 : 0);
    }

    private static SslContext create(boolean alpn, boolean trustAll, SslProvider provider) {
        try {
            SslContextBuilder b = SslContextBuilder.forClient().sslProvider(provider);
            if (alpn) {
                b.ciphers(Http2SecurityUtil.CIPHERS, SupportedCipherSuiteFilter.INSTANCE)
                        .applicationProtocolConfig(new ApplicationProtocolConfig(
                                ApplicationProtocolConfig.Protocol.ALPN,
                                ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
                                ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT,
                                ApplicationProtocolNames.HTTP_2, ApplicationProtocolNames.HTTP_1_1));
            }
            if (trustAll) {
                b.trustManager(InsecureTrustManagerFactory.INSTANCE).endpointIdentificationAlgorithm(null);
            } else {
                b.endpointIdentificationAlgorithm("HTTPS");
            }
            return b.build();
        } catch (SSLException e) {
            throw new IllegalStateException("cannot create the TLS client context" + (alpn ? " with ALPN" : "")
                    + ": " + e.getMessage(), e);
        }
    }

    /** HTTP/2's TLS implementation, chosen once per class loader (loading BoringSSL's library is done once anyway). */
    private static final class Provider {
        static final SslProvider CHOSEN = choose();

        private static SslProvider choose() {
            Logger log = LoggerFactory.getLogger(TlsContexts.class);
            if (OpenSsl.isAvailable() && OpenSsl.isAlpnSupported()) {
                log.info("Stampede engine: h2 TLS on {}", OpenSsl.versionString());
                return SslProvider.OPENSSL;
            }
            Throwable why = OpenSsl.unavailabilityCause();
            log.info("Stampede engine: h2 TLS on the JDK's SSLEngine (BoringSSL unavailable here: {})",
                    why == null ? "no ALPN support" : why.toString());
            return SslProvider.JDK;
        }

        private Provider() {
        }
    }
}
