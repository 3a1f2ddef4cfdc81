/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.httprequest;

import io.stampede.engine.ConnectTimeoutException;
import io.stampede.engine.PrematureCloseException;
import io.stampede.engine.ResponseTimeoutException;
import org.apache.http.ConnectionClosedException;
import org.apache.http.HttpHost;
import org.apache.http.NoHttpResponseException;
import org.apache.http.conn.HttpHostConnectException;

import java.io.IOException;
import java.net.BindException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.SocketTimeoutException;

/**
 * Engine failures renamed to the exceptions stock JMeter's HttpClient 4 sampler reports for the same event, so that a
 * result reads "Non HTTP response code: org.apache.http.conn.HttpHostConnectException" on both engines and listeners,
 * assertions and dashboards that group errors by that text keep working after the switch. Anything else (TLS, an
 * unknown host, a protocol error) keeps its own class, as it does in stock.
 */
final class StockFailures {

    private StockFailures() {
    }

    static IOException of(IOException e, String host, InetAddress address, int port, boolean tls) {
        HttpHost target = new HttpHost(host, port, tls ? "https" : "http");
        if (e instanceof ConnectTimeoutException) {
            IOException cause = new SocketTimeoutException("connect timed out");
            return withCause(new org.apache.http.conn.ConnectTimeoutException(cause, target, address), e);
        }
        String message = String.valueOf(e.getMessage());
        if (message.contains("Cannot assign requested address")) {
            // Out of local ports (EADDRNOTAVAIL): the JDK's socket throws a BindException, which HttpClient 4 does not
            // wrap, and which the run's diagnosis must see to blame the injector rather than the server.
            return withCause(new BindException("Cannot assign requested address"), e);
        }
        if (e instanceof ConnectException || message.contains("Connection refused")) {
            ConnectException cause = new ConnectException(reason(message));
            return withCause(new HttpHostConnectException(cause, target, address), e);
        }
        if (e instanceof ResponseTimeoutException) {
            return withCause(new SocketTimeoutException("Read timed out"), e);
        }
        if (e instanceof PrematureCloseException closed) {
            if (closed.beforeAnyByte()) {
                return withCause(new NoHttpResponseException(target.toHostString() + " failed to respond"), e);
            }
            return withCause(new ConnectionClosedException("Premature end of message: " + e.getMessage()), e);
        }
        return e;
    }

    /** Netty words a failed connect as "connect(..) failed: Connection refused"; stock quotes the reason alone. */
    private static String reason(String message) {
        int colon = message.lastIndexOf("failed: ");
        return colon < 0 ? message : message.substring(colon + "failed: ".length());
    }

    private static IOException withCause(IOException stock, IOException engine) {
        // The engine's own exception stays visible in the response data's stack trace.
        stock.addSuppressed(engine);
        return stock;
    }
}
