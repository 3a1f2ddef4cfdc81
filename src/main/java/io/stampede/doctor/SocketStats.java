/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.doctor;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Counts TIME_WAIT sockets with iproute2's {@code ss -Htn state time-wait}, which asks the kernel (sock_diag) for
 * TIME_WAIT sockets only. Reading /proc/net/tcp instead makes the kernel format a line for every socket: with
 * 100,000 loopback connections (200,000 sockets) that costs about a second of CPU at every progress tick of a run.
 */
final class SocketStats {

    private static final List<Path> LOCATIONS = List.of(Path.of("/usr/bin/ss"), Path.of("/bin/ss"),
            Path.of("/usr/sbin/ss"), Path.of("/sbin/ss"));

    private final Path ss;

    private SocketStats(Path ss) {
        this.ss = ss;
    }

    /** Empty when ss is not installed (then /proc/net/tcp is read). */
    static Optional<SocketStats> find() {
        return LOCATIONS.stream().filter(Files::isExecutable).findFirst().map(SocketStats::new);
    }

    /** Empty when ss fails or takes longer than 10 s. */
    Optional<TimeWaitCount> timeWait(Optional<Target> target) {
        try {
            Process p = new ProcessBuilder(ss.toString(), "-Htn", "state", "time-wait")
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String out;
            try (InputStream in = p.getInputStream()) {
                out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return Optional.empty();
            }
            return p.exitValue() == 0 ? Optional.of(count(out, target)) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /**
     * Counts the lines of {@code ss -Htn state time-wait}: "Recv-Q Send-Q Local:Port Peer:Port", IPv6 addresses in
     * brackets ("[::ffff:127.0.0.1]:8080"), an interface suffix after '%' on link-local ones.
     */
    static TimeWaitCount count(String output, Optional<Target> target) {
        long total = 0;
        long toTarget = 0;
        for (String line : output.split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length < 4) {
                continue;
            }
            total++;
            if (target.isPresent() && matches(f[3], target.get())) {
                toTarget++;
            }
        }
        return new TimeWaitCount(total, toTarget);
    }

    private static boolean matches(String peer, Target target) {
        int colon = peer.lastIndexOf(':');
        if (colon < 0) {
            return false;
        }
        try {
            if (Integer.parseInt(peer.substring(colon + 1)) != target.port()) {
                return false;
            }
        } catch (NumberFormatException e) {
            return false;
        }
        String host = peer.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int zone = host.indexOf('%');
        if (zone >= 0) {
            host = host.substring(0, zone);
        }
        try {
            // A literal address is parsed, never looked up; ::ffff:a.b.c.d becomes an Inet4Address.
            return target.addresses().contains(InetAddress.getByName(host));
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
