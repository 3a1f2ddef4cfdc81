/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.function.Supplier;

/** Loopback TCP ports for servers a test starts: free ones, and waiting until a started server accepts on one. */
public final class FreePort {

    private FreePort() {
    }

    /**
     * A port the kernel just handed out on 127.0.0.1 and released again. Another process could take it before
     * the caller binds it, so callers that start a server should retry on "address in use".
     */
    public static int loopback() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot bind a free loopback port", e);
        }
    }

    /** Whether something accepts a TCP connection on 127.0.0.1:{@code port} within 200 ms. */
    public static boolean accepts(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Waits up to about 10 s until {@code server} accepts on 127.0.0.1:{@code port}; when it exits or the time runs
     * out, fails with {@code what} and the server's own words ({@code output}, read then).
     */
    public static void awaitListening(int port, Process server, String what, Supplier<String> output)
            throws InterruptedException {
        for (int i = 0; i < 100 && server.isAlive(); i++) {
            if (accepts(port)) {
                return;
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException(what + " did not start: " + output.get());
    }
}
