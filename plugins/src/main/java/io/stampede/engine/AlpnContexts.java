/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine;

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

import javax.net.ssl.SSLException;

/**
 * The engine's TLS client contexts that offer {@code h2,http/1.1} in ALPN (RFC 7301), with the cipher suites HTTP/2
 * allows (RFC 9113 §9.2.2): one verifying, one trusting any certificate, each made at first use and shared by all
 * connections so that sessions resume. The server's choice is read from the handshake; a server without ALPN or
 * without h2 is spoken to in HTTP/1.1.
 *
 * <p>TLS runs on BoringSSL (netty-tcnative, shaded into the plugin jar for Linux x86-64) where its library loads:
 * next to the JDK's SSLEngine it took a third to a half less CPU per h2 request (it/bench/RESULTS.md). Elsewhere,
 * or with {@code -Dio.stampede.shaded.io.netty.handler.ssl.noOpenSsl=true}, the JDK's TLS is used, and the engine
 * says so once in the log.
 */
final class AlpnContexts {
    private final LazyTlsContexts contexts = new LazyTlsContexts(AlpnContexts::create);

    SslContext get(boolean trustAll) {
        return contexts.get(trustAll);
    }

    private static SslContext create(boolean trustAll) {
        try {
            SslContextBuilder b = SslContextBuilder.forClient().sslProvider(Provider.CHOSEN)
                    .ciphers(Http2SecurityUtil.CIPHERS, SupportedCipherSuiteFilter.INSTANCE)
                    .applicationProtocolConfig(new ApplicationProtocolConfig(ApplicationProtocolConfig.Protocol.ALPN,
                            ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
                            ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT,
                            ApplicationProtocolNames.HTTP_2, ApplicationProtocolNames.HTTP_1_1));
            if (trustAll) {
                b.trustManager(InsecureTrustManagerFactory.INSTANCE).endpointIdentificationAlgorithm(null);
            } else {
                b.endpointIdentificationAlgorithm("HTTPS");
            }
            return b.build();
        } catch (SSLException e) {
            throw new IllegalStateException("cannot create the TLS client context with ALPN: " + e.getMessage(), e);
        }
    }

    /** The TLS implementation, chosen once per class loader (loading BoringSSL's library is done once anyway). */
    private static final class Provider {
        static final SslProvider CHOSEN = choose();

        private static SslProvider choose() {
            Logger log = LoggerFactory.getLogger(AlpnContexts.class);
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
