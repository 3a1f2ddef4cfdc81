/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.websocket;

import io.stampede.it.support.FreePort;
import io.stampede.it.support.Folders;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * it/websocket/peer.py (python3-websockets, run by Debian's /usr/bin/python3) on free loopback ports: the WebSocket
 * server the ITs talk to, which is not ours. Stopped by its PID.
 */
final class WebSocketPeer implements AutoCloseable {
    final int port;
    final int silentPort;
    final int garbagePort;
    private final Process process;
    private final Path out;

    private WebSocketPeer(int port, int silentPort, int garbagePort, Process process, Path out) {
        this.port = port;
        this.silentPort = silentPort;
        this.garbagePort = garbagePort;
        this.process = process;
        this.out = out;
    }

    static WebSocketPeer start(Path root) throws IOException, InterruptedException {
        int port = FreePort.loopback();
        int silent = FreePort.loopback();
        int garbage = FreePort.loopback();
        Path out = Files.createTempFile("stampede-ws-peer", ".out");
        Process p = new ProcessBuilder("/usr/bin/python3", root.resolve("it/websocket/peer.py").toString(),
                "--port", Integer.toString(port), "--silent-port", Integer.toString(silent),
                "--garbage-port", Integer.toString(garbage))
                .redirectErrorStream(true).redirectOutput(out.toFile()).start();
        FreePort.awaitListening(port, p, "the WebSocket peer (python3-websockets, installed by it/run-tests.sh)",
                () -> Folders.readQuietly(out));
        FreePort.awaitListening(garbage, p, "the WebSocket peer's garbage port", () -> Folders.readQuietly(out));
        return new WebSocketPeer(port, silent, garbage, p, out);
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
