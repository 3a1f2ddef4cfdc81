/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sampler;

import io.stampede.engine.ConnectTimeoutException;

import java.io.IOException;
import java.net.BindException;
import java.net.ConnectException;
import java.net.SocketException;

/**
 * Names a failed sample the way JMeter's own HTTP sampler does ("Non HTTP response code: java.net.ConnectException"),
 * mapping the transport's exceptions (native epoll errors, Netty wrappers) onto the stable JDK / Stampede classes
 * that users and Stampede's result analysis know, so the same failure reads the same on epoll and on NIO.
 */
record NonHttpFailure(String className, String message) {
    static final String CODE_PREFIX = "Non HTTP response code: ";
    static final String MESSAGE_PREFIX = "Non HTTP response message: ";

    static NonHttpFailure of(Throwable t) {
        for (Throwable c = t; c != null && c.getCause() != c; c = c.getCause()) {
            if (c instanceof javax.net.ssl.SSLException ssl) {
                // Handshake failures arrive wrapped by the TLS handler; users know the JDK's own exception.
                return new NonHttpFailure(ssl.getClass().getName(), String.valueOf(ssl.getMessage()));
            }
        }
        String msg = String.valueOf(t.getMessage());
        String cls = t.getClass().getName();
        if (cls.endsWith(".netty.channel.ConnectTimeoutException")) {
            return new NonHttpFailure(ConnectTimeoutException.class.getName(), msg);
        }
        if (msg.contains("Cannot assign requested address")) {
            return new NonHttpFailure(BindException.class.getName(), "Cannot assign requested address");
        }
        if (msg.contains("Connection refused")) {
            return new NonHttpFailure(ConnectException.class.getName(), "Connection refused");
        }
        if (msg.contains("Connection reset")) {
            return new NonHttpFailure(SocketException.class.getName(), "Connection reset by peer");
        }
        if (msg.contains("Broken pipe")) {
            return new NonHttpFailure(SocketException.class.getName(), "Broken pipe");
        }
        if (t instanceof ConnectException) {
            return new NonHttpFailure(ConnectException.class.getName(), msg);
        }
        return new NonHttpFailure(cls, msg);
    }

    /** Whether a failure on a reused keep-alive connection before any response byte may be retried once. */
    static boolean staleConnection(IOException e) {
        NonHttpFailure f = of(e);
        return f.className.equals(io.stampede.engine.PrematureCloseException.class.getName())
                || f.className.equals(SocketException.class.getName());
    }

    String responseCode() {
        return CODE_PREFIX + className;
    }

    String responseMessage() {
        return MESSAGE_PREFIX + message;
    }
}
