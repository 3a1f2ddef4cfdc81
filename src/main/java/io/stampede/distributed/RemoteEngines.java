/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.distributed;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/** The engines of one distributed run (`stampede run --remote host[:port],...`), checked before anything starts. */
public record RemoteEngines(List<RemoteEngine> engines) {

    public RemoteEngines {
        engines = List.copyOf(engines);
        if (engines.isEmpty()) {
            throw new IllegalArgumentException("--remote: give at least one engine, e.g. --remote 10.0.0.11,10.0.0.12:1099");
        }
    }

    /** A comma-separated list of {@code host[:port]}; each engine once. */
    public static RemoteEngines parse(String list) {
        if (list == null || list.isBlank()) {
            throw new IllegalArgumentException("--remote is empty: give host[:port] entries separated by commas,"
                    + " e.g. --remote 10.0.0.11,10.0.0.12:1099");
        }
        List<RemoteEngine> parsed = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (String entry : list.split(",", -1)) {
            if (entry.isBlank()) {
                throw new IllegalArgumentException("--remote " + list + ": an entry is empty; give host[:port]"
                        + " entries separated by single commas");
            }
            RemoteEngine engine = RemoteEngine.parse(entry);
            if (!seen.add(engine.toString())) {
                throw new IllegalArgumentException("--remote " + list + ": " + engine + " is listed twice; each"
                        + " engine runs the whole plan, so list it once");
            }
            parsed.add(engine);
        }
        return new RemoteEngines(parsed);
    }

    /** The value for JMeter's {@code -R}. */
    public String jmeterList() {
        return engines.stream().map(RemoteEngine::toString).collect(Collectors.joining(","));
    }

    /** Whether every engine is on this machine's loopback (then the built-in target can serve them). */
    public boolean allLoopback() {
        for (RemoteEngine e : engines) {
            try {
                if (!InetAddress.getByName(e.host()).isLoopbackAddress()) {
                    return false;
                }
            } catch (UnknownHostException unknown) {
                return false;
            }
        }
        return true;
    }

    /**
     * The address the engines call the controller back on (RMI's {@code java.rmi.server.hostname} for the
     * controller): loopback when every engine is local, else this machine's address on the route to the first
     * engine. A UDP socket's connect only picks the route; nothing is sent.
     */
    public Optional<String> callbackAddress() {
        if (allLoopback()) {
            return Optional.of("127.0.0.1");
        }
        RemoteEngine first = engines.get(0);
        try (DatagramSocket probe = new DatagramSocket()) {
            probe.connect(new InetSocketAddress(first.host(), first.port()));
            InetAddress local = probe.getLocalAddress();
            return local == null || local.isAnyLocalAddress() ? Optional.empty() : Optional.of(local.getHostAddress());
        } catch (IOException | IllegalArgumentException | SecurityException e) {
            return Optional.empty();
        }
    }

    public int size() {
        return engines.size();
    }
}
