/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Debian's httpbin (package python3-httpbin) on a free loopback port, as a child process: an echo server whose
 * /anything/... answers the request it got (path, headers, cookies) as JSON.
 */
public final class HttpbinServer implements AutoCloseable {
    // Debian's interpreter, where the package installs the module (a pyenv python3 first on PATH would not see it).
    private static final String PYTHON = "/usr/bin/python3";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(20);

    private final Process process;
    private final int port;
    private final Path output;

    private HttpbinServer(Process process, int port, Path output) {
        this.process = process;
        this.port = port;
        this.output = output;
    }

    public static HttpbinServer start() {
        int port = FreePort.loopback();
        Path out;
        Process p;
        try {
            out = Files.createTempFile("stampede-httpbin-", ".out");
            p = new ProcessBuilder(PYTHON, "-m", "httpbin.core", "--host", "127.0.0.1", "--port",
                    Integer.toString(port)).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start httpbin with " + PYTHON + " (install python3-httpbin)", e);
        }
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!p.isAlive()) {
                throw new IllegalStateException("httpbin exited with " + p.exitValue() + " (install the Debian "
                        + "package python3-httpbin): " + Folders.readQuietly(out));
            }
            if (FreePort.accepts(port)) {
                return new HttpbinServer(p, port, out);
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        ProcessTrees.kill(p);
        throw new IllegalStateException("httpbin did not accept on 127.0.0.1:" + port + " within " + START_TIMEOUT
                + ": " + Folders.readQuietly(out));
    }

    public int port() {
        return port;
    }

    @Override
    public void close() {
        ProcessTrees.kill(process);
        try {
            Files.deleteIfExists(output);
        } catch (IOException e) {
            // a temporary file; nothing to do
        }
    }
}
