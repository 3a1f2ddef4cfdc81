/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Loopback TCP ports for servers a test starts, and ports known to refuse connections. */
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
}
