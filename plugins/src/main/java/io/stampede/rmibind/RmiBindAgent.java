/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.rmibind;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.rmi.server.RMISocketFactory;

/**
 * {@code -javaagent:stampede-rmi-bind.jar=ADDRESS}: makes {@link BoundRmiSockets} the JVM's RMI socket factory
 * before JMeter starts. An agent because jmeter-server exports its registry and engine before it runs any init
 * script or plugin code. Its jar holds this package alone: classes on the system class path are found before
 * JMeter's lib/ext, so the agent must not bring plugin classes that need JMeter's class loader.
 */
public final class RmiBindAgent {

    private RmiBindAgent() {}

    public static void premain(String address) {
        if (address == null || address.isBlank()) {
            throw new IllegalArgumentException("stampede-rmi-bind.jar needs the address to listen on:"
                    + " -javaagent:stampede-rmi-bind.jar=ADDRESS");
        }
        try {
            RMISocketFactory.setSocketFactory(new BoundRmiSockets(InetAddress.getByName(address.trim())));
        } catch (IOException e) {
            throw new UncheckedIOException("stampede-rmi-bind.jar: cannot listen on " + address, e);
        }
    }
}
