/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.doctor;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.List;

/**
 * The server under test as the injector sees it: host, port, the addresses it resolves to, and whether those
 * are loopback (tcp_tw_reuse=2 applies) or assigned to this namespace (its listen backlog is ours to read).
 */
public record Target(String host, int port, List<InetAddress> addresses, boolean loopback, boolean local) {

    public Target {
        addresses = List.copyOf(addresses);
    }

    /**
     * Parses "HOST:PORT" or "[IPv6]:PORT" and resolves the host.
     *
     * @throws IllegalArgumentException with a message that shows the expected form
     */
    public static Target parse(String text) {
        String s = text == null ? "" : text.trim();
        int colon = s.lastIndexOf(':');
        if (colon <= 0 || colon == s.length() - 1) {
            throw new IllegalArgumentException("expected HOST:PORT (e.g. 10.0.0.5:80 or [::1]:8080), got '" + s + "'");
        }
        String host = s.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        } else if (host.contains(":")) {
            throw new IllegalArgumentException("an IPv6 address needs brackets, e.g. [::1]:8080, got '" + s + "'");
        }
        int port;
        try {
            port = Integer.parseInt(s.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("the port must be a number 1-65535, got '" + s.substring(colon + 1) + "'");
        }
        return resolve(host, port);
    }

    /** Resolves {@code host} and works out whether it is loopback or local to this network namespace. */
    public static Target resolve(String host, int port) {
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("the port must be 1-65535, got " + port);
        }
        List<InetAddress> addresses;
        try {
            addresses = List.of(InetAddress.getAllByName(host));
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("cannot resolve host '" + host + "': " + e.getMessage());
        }
        boolean loopback = addresses.stream().allMatch(InetAddress::isLoopbackAddress);
        boolean local = loopback || addresses.stream().anyMatch(Target::assignedHere);
        return new Target(host, port, addresses, loopback, local);
    }

    private static boolean assignedHere(InetAddress address) {
        try {
            return address.isAnyLocalAddress() || NetworkInterface.getByInetAddress(address) != null;
        } catch (SocketException e) {
            return false;
        }
    }

    /** "127.0.0.1:8080" (IPv6 in brackets). */
    public String hostPort() {
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }

    /** "127.0.0.1:8080 (loopback)" or "web:80 (10.0.0.5, remote)". */
    public String describe() {
        StringBuilder where = new StringBuilder();
        String first = addresses.get(0).getHostAddress();
        if (!first.equals(host)) {
            where.append(first).append(", ");
        }
        where.append(loopback ? "loopback" : local ? "local" : "remote");
        return hostPort() + " (" + where + ")";
    }
}
