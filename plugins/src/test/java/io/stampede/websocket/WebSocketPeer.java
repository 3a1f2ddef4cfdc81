/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.websocket;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The project's WebSocket test peer (it/websocket/peer.py on Debian's python3-websockets, run by /usr/bin/python3,
 * since the python3 on PATH may not see Debian's packages), started on free loopback ports and stopped by PID: a
 * WebSocket server that is not ours. The plugin's tests and the ITs (through this module's test jar) share it.
 */
public final class WebSocketPeer implements AutoCloseable {
    private static final String PYTHON = "/usr/bin/python3";
    /** Echoes, pushes and refuses as the path asks (peer.py's header says how). */
    public final int port;
    /** Accepts TCP and never answers the upgrade. */
    public final int silentPort;
    /** Answers the upgrade with bytes that are not HTTP. */
    public final int garbagePort;
    private final Process process;
    private final Path out;

    private WebSocketPeer(int port, int silentPort, int garbagePort, Process process, Path out) {
        this.port = port;
        this.silentPort = silentPort;
        this.garbagePort = garbagePort;
        this.process = process;
        this.out = out;
    }

    /** Started from a module folder of the repository (plugins/ or it/, as Maven runs the tests). */
    static WebSocketPeer start() throws IOException, InterruptedException {
        return start(Path.of(".."));
    }

    /** Started from the repository at {@code root}. */
    public static WebSocketPeer start(Path root) throws IOException, InterruptedException {
        Path script = root.resolve("it/websocket/peer.py").toAbsolutePath().normalize();
        int port = freePort();
        int silent = freePort();
        int garbage = freePort();
        Path out = Files.createTempFile("stampede-ws-peer", ".out");
        Process p = new ProcessBuilder(PYTHON, script.toString(), "--port", Integer.toString(port), "--silent-port",
                Integer.toString(silent), "--garbage-port", Integer.toString(garbage))
                .redirectErrorStream(true).redirectOutput(out.toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (!accepts(port) || !accepts(garbage)) {
            if (!p.isAlive() || System.nanoTime() > deadline) {
                p.destroyForcibly();
                throw new IllegalStateException("the WebSocket peer did not start (is python3-websockets installed? "
                        + "it/run-tests.sh installs it): " + Files.readString(out));
            }
            Thread.sleep(50);
        }
        return new WebSocketPeer(port, silent, garbage, p, out);
    }

    /** What the peer counted itself since it started (its {@code /counts}). */
    public record Counts(long sessions, long received, long pushed) {
    }

    /** The peer's own counts: sessions it accepted, messages it received, pushes it sent. */
    public Counts counts() throws IOException, InterruptedException {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + port + "/counts")).timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IOException("the peer's /counts answered " + r.statusCode() + ": " + r.body());
        }
        return new Counts(count(r.body(), "sessions"), count(r.body(), "received"), count(r.body(), "pushed"));
    }

    private static long count(String json, String name) throws IOException {
        Matcher m = Pattern.compile("\"" + name + "\": *(\\d+)").matcher(json);
        if (!m.find()) {
            throw new IOException("the peer's /counts has no " + name + ": " + json);
        }
        return Long.parseLong(m.group(1));
    }

    String url(String path) {
        return "ws://127.0.0.1:" + port + path;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static boolean accepts(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    @Override
    public void close() throws IOException, InterruptedException {
        process.destroy();
        if (!process.waitFor(5, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
        Files.deleteIfExists(out);
    }
}
