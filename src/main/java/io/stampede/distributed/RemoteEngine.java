/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.distributed;

import java.util.regex.Pattern;

/** One jmeter-server engine a controller drives: the host and port of its RMI registry. */
public record RemoteEngine(String host, int port) {

    /** JMeter's own default for server_port. */
    public static final int DEFAULT_PORT = 1099;

    // Host names and IPv4 addresses only: JMeter's -R splits each entry at ':', so IPv6 literals cannot pass.
    private static final Pattern HOST = Pattern.compile("[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?");

    public RemoteEngine {
        if (host == null || !HOST.matcher(host).matches()) {
            throw new IllegalArgumentException("--remote: '" + host + "' is not a host name or IPv4 address"
                    + " (JMeter's -R cannot take IPv6 literals; use a host name for those)");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("--remote " + host + ":" + port + ": port " + port
                    + " is not a TCP port; use 1 to 65535 (default " + DEFAULT_PORT + ")");
        }
    }

    /** {@code host} or {@code host:port}, as in JMeter's remote_hosts. */
    public static RemoteEngine parse(String entry) {
        String e = entry.trim();
        int colon = e.indexOf(':');
        if (colon < 0) {
            return new RemoteEngine(e, DEFAULT_PORT);
        }
        if (e.indexOf(':', colon + 1) >= 0) {
            throw new IllegalArgumentException("--remote: '" + e + "' has more than one ':'; give host[:port]"
                    + " (JMeter's -R cannot take IPv6 literals; use a host name for those)");
        }
        String portText = e.substring(colon + 1);
        int port;
        try {
            port = Integer.parseInt(portText);
        } catch (NumberFormatException notNumber) {
            throw new IllegalArgumentException("--remote " + e + ": port '" + portText
                    + "' is not a number; give host[:port], e.g. 10.0.0.11:1099");
        }
        return new RemoteEngine(e.substring(0, colon), port);
    }

    /** The form JMeter's -R list and the engine's thread-name prefix use. */
    @Override
    public String toString() {
        return host + ":" + port;
    }
}
