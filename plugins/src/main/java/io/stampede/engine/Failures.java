/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.BindException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.ProtocolException;
import java.net.SocketException;
import javax.net.ssl.SSLException;

/**
 * The engine's one vocabulary of failures: the exceptions it raises itself, how any transport error (native epoll
 * errors, Netty wrappers, TLS) is named for users, and the one rule for retrying a request on a stale keep-alive
 * connection. Names follow JMeter's own HTTP sampler ("Non HTTP response code: java.net.ConnectException"), so the
 * same failure reads the same on epoll and on NIO.
 */
public final class Failures {

    /** A failure as users read it: the exception class they know and its message. */
    public record Name(String className, String message) {
    }

    private Failures() {
    }

    /** Any throwable as the IOException that an exchange fails with. */
    public static IOException io(Throwable t) {
        return t instanceof IOException io ? io : new IOException(String.valueOf(t), t);
    }

    /**
     * A failed connect: the transport's own connect timeout reads like the owner's (the two race harmlessly), any
     * other cause as it came.
     */
    static IOException connectFailure(Throwable t, InetSocketAddress remote) {
        return t instanceof io.netty.channel.ConnectTimeoutException ? connectTimeout(remote) : io(t);
    }

    /** The stable name of a failure: JDK or Stampede classes, whatever the transport raised. */
    public static Name name(Throwable t) {
        for (Throwable c = t; c != null && c.getCause() != c; c = c.getCause()) {
            if (c instanceof SSLException ssl) {
                // Handshake failures arrive wrapped by the TLS handler; users know the JDK's own exception.
                return new Name(ssl.getClass().getName(), String.valueOf(ssl.getMessage()));
            }
        }
        String msg = String.valueOf(t.getMessage());
        String cls = t.getClass().getName();
        if (cls.endsWith(".netty.channel.ConnectTimeoutException")) {
            return new Name(ConnectTimeoutException.class.getName(), msg);
        }
        if (t instanceof ProtocolException || t.getClass().getPackageName().equals(Failures.class.getPackageName())) {
            // Named by us already; a framing error may quote a header line that reads like a transport error.
            return new Name(cls, msg);
        }
        if (msg.contains("Cannot assign requested address")) {
            return new Name(BindException.class.getName(), "Cannot assign requested address");
        }
        if (msg.contains("Connection refused")) {
            return new Name(ConnectException.class.getName(), "Connection refused");
        }
        if (msg.contains("Connection reset")) {
            return new Name(SocketException.class.getName(), "Connection reset by peer");
        }
        if (msg.contains("Broken pipe")) {
            return new Name(SocketException.class.getName(), "Broken pipe");
        }
        if (t instanceof ConnectException) {
            return new Name(ConnectException.class.getName(), msg);
        }
        return new Name(cls, msg);
    }

    /**
     * Whether a request that failed this way on a reused keep-alive connection, before any response byte, may be
     * sent once more on a new connection: the server closed or reset the idle connection as the request went out.
     */
    static boolean staleKeepAlive(Throwable t) {
        String cls = name(t).className();
        return cls.equals(PrematureCloseException.class.getName()) || cls.equals(SocketException.class.getName());
    }

    static PrematureCloseException closedByServer(String progress) {
        return new PrematureCloseException("Connection closed by the server " + progress);
    }

    /** The server closed the connection while {@code framer} was reading a response, wherever it stood. */
    static PrematureCloseException closedByServer(ResponseFramer framer) {
        return new PrematureCloseException("Connection closed by the server " + framer.progress(),
                framer.nothingReceived());
    }

    static PrematureCloseException threadFinished() {
        return new PrematureCloseException("Connection closed (thread finished)");
    }

    static PrematureCloseException engineStopped() {
        return new PrematureCloseException("Engine stopped (test ending)");
    }

    static ConnectTimeoutException connectTimeout(InetSocketAddress remote) {
        return new ConnectTimeoutException("Could not connect to " + remote.getHostString() + ':' + remote.getPort()
                + " within the connect timeout");
    }

    static ResponseTimeoutException responseTimeout() {
        return new ResponseTimeoutException("No complete response within the response timeout");
    }

    public static InterruptedIOException interrupted() {
        return new InterruptedIOException("Sample interrupted (test stopped)");
    }
}
