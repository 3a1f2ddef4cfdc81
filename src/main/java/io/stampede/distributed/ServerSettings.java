/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.distributed;

import io.stampede.cli.CliNames;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How one jmeter-server engine listens: its RMI registry port ({@code server_port}), the port its engine object is
 * exported on ({@code server.rmi.localport}, 0 = any free port), the address it listens on and tells controllers to
 * call ({@code java.rmi.server.hostname}), and RMI over SSL with a keystore or plain RMI.
 *
 * @param keystore null for plain RMI ({@code server.rmi.ssl.disable=true})
 */
public record ServerSettings(int registryPort, int objectPort, String advertisedAddress, Path keystore,
                             String keystorePassword) {

    public ServerSettings {
        if (registryPort < 1 || registryPort > 65535) {
            throw new IllegalArgumentException("--port " + registryPort + " is not a TCP port: use 1 to 65535"
                    + " (JMeter's default is 1099)");
        }
        if (objectPort < 0 || objectPort > 65535) {
            throw new IllegalArgumentException("--rmi-port " + objectPort + " is not a TCP port: use 1 to 65535,"
                    + " or 0 for any free port");
        }
        if (advertisedAddress == null || advertisedAddress.isBlank()) {
            throw new IllegalArgumentException("--bind is empty: give this machine's address on the injector"
                    + " network, e.g. --bind 10.0.0.11");
        }
        try {
            InetAddress.getByName(advertisedAddress);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("--bind " + advertisedAddress + ": unknown host; give this machine's"
                    + " address on the injector network, e.g. --bind 10.0.0.11");
        }
        if (keystore != null && !Files.isRegularFile(keystore)) {
            throw new IllegalArgumentException("--ssl-keystore " + keystore + " is not a file: create one with"
                    + " `stampede server create-keystore DIR` and copy DIR to the controller and every engine");
        }
        if (keystore != null && (keystorePassword == null || keystorePassword.isEmpty())) {
            throw new IllegalArgumentException("--ssl-password is empty: give the keystore's password");
        }
    }

    public boolean ssl() {
        return keystore != null;
    }

    /**
     * How long the engine waits for the controller to answer a call (a batch of results, the end of the test):
     * a controller that stopped answering must not hold the engine's sender forever.
     */
    static final int RMI_RESPONSE_TIMEOUT_MS = 30_000;

    /**
     * JVM options: RMI hands this address to controllers, so it must be one they can reach, and listens on it
     * alone ({@link RmiBind}: JMeter's plain RMI would listen on every interface).
     */
    public List<String> jvmOptions(Path stampedeRoot) {
        return List.of("-Djava.rmi.server.hostname=" + advertisedAddress,
                "-Dsun.rmi.transport.tcp.responseTimeout=" + RMI_RESPONSE_TIMEOUT_MS,
                RmiBind.javaAgent(stampedeRoot, advertisedAddress));
    }

    /** The keystore's passwords, for a file only the user can read rather than the command line. */
    public Map<String, String> secretProperties() {
        return ssl() ? new RmiKeystore(keystore, keystorePassword).secretProperties() : Map.of();
    }

    /** The JMeter properties (-J) of the engine, without {@link #secretProperties()}. */
    public Map<String, String> jmeterProperties() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("server_port", Integer.toString(registryPort));
        p.put("server.rmi.localport", Integer.toString(objectPort));
        if (ssl()) {
            p.putAll(new RmiKeystore(keystore, keystorePassword).jmeterProperties());
        } else {
            p.put(CliNames.RMI_SSL_DISABLE, "true");
        }
        return p;
    }
}
