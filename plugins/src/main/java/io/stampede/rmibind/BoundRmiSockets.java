/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.rmibind;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.rmi.server.RMISocketFactory;

/**
 * Plain RMI sockets that listen on one address. JMeter 5.6.3 exports its registry, its engine and the
 * controller's result listener with no server socket factory when {@code server.rmi.ssl.disable=true}; RMI then
 * takes the JVM's default factory, which listens on every interface whatever {@code java.rmi.server.hostname}
 * says. Installed as that default ({@link RmiBindAgent}), this one keeps them on the address the user gave.
 */
public final class BoundRmiSockets extends RMISocketFactory {
    /** Calls to a peer that does not answer the connection fail instead of waiting for the system's limit. */
    static final int CONNECT_TIMEOUT_MS = 10_000;

    private final InetAddress address;

    public BoundRmiSockets(InetAddress address) {
        this.address = address;
    }

    public InetAddress address() {
        return address;
    }

    @Override
    public ServerSocket createServerSocket(int port) throws IOException {
        ServerSocket s = new ServerSocket();
        s.setReuseAddress(true);
        s.bind(new InetSocketAddress(address, port), 50);
        return s;
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
        Socket s = new Socket();
        s.connect(new InetSocketAddress(host, port), CONNECT_TIMEOUT_MS);
        return s;
    }

    @Override
    public boolean equals(Object o) {
        // RMI shares one listening socket between exports whose factories are equal
        return o instanceof BoundRmiSockets b && b.address.equals(address);
    }

    @Override
    public int hashCode() {
        return address.hashCode();
    }
}
