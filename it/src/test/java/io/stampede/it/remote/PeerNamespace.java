/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.remote;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Another machine on this machine's network, for exposure tests: a network namespace joined to this one by a
 * veth pair, this side {@code 10.233.N.1/30}, the namespace's side {@code .2}. From the namespace, this machine is
 * reachable at {@link #hostAddress()} only, as from a neighbour on the injector network; loopback is not.
 */
final class PeerNamespace implements AutoCloseable {
    private final String name;
    private final String hostSide;
    private final String hostAddress;

    private PeerNamespace(String name, String hostSide, String hostAddress) {
        this.name = name;
        this.hostSide = hostSide;
        this.hostAddress = hostAddress;
    }

    static PeerNamespace create() throws IOException, InterruptedException {
        long id = ProcessHandle.current().pid() % 10_000;
        String name = "st33peer" + id;
        String hostSide = "st33h" + id;
        String peerSide = "st33p" + id;
        String net = "10.233." + (id % 250) + ".";
        PeerNamespace ns = new PeerNamespace(name, hostSide, net + "1");
        try {
            ip("netns", "add", name);
            ip("link", "add", hostSide, "type", "veth", "peer", "name", peerSide);
            ip("link", "set", peerSide, "netns", name);
            ip("addr", "add", net + "1/30", "dev", hostSide);
            ip("link", "set", hostSide, "up");
            ip("-n", name, "addr", "add", net + "2/30", "dev", peerSide);
            ip("-n", name, "link", "set", peerSide, "up");
            ip("-n", name, "link", "set", "lo", "up");
            return ns;
        } catch (IOException | RuntimeException e) {
            ns.close();
            throw e;
        }
    }

    /** This machine's address as the namespace sees it (not loopback). */
    String hostAddress() {
        return hostAddress;
    }

    /** Whether a TCP connection from the namespace to {@code host:port} is accepted within 5 s. */
    boolean connects(String host, int port) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("ip", "netns", "exec", name, "timeout", "5", "bash", "-c",
                "exec 3<>/dev/tcp/" + host + "/" + port).redirectErrorStream(true).start();
        if (!p.waitFor(15, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("the connection test in " + name + " did not end");
        }
        return p.exitValue() == 0;
    }

    private static void ip(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("ip"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException(String.join(" ", cmd) + " failed: " + out);
        }
    }

    /** Removing the namespace removes its end of the veth pair, and with it this end. */
    @Override
    public void close() {
        for (String[] remove : List.of(new String[] {"netns", "del", name}, new String[] {"link", "del", hostSide})) {
            try {
                ip(remove);
            } catch (IOException e) {
                // already gone with the namespace, or never created
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
