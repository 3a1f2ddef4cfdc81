/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The Debian nginx binary, started as a child process on a free loopback port with a configuration of its own in
 * a temporary folder, so tests never depend on (or disturb) the system's nginx on port 80.
 *
 * <p>Serves {@code /test.txt} (18 bytes) and {@code /index.html} (a welcome page). {@link #close()} stops nginx and
 * deletes the folder; a JVM shutdown hook does the same if a test aborts before closing it.
 */
public final class NginxServer implements AutoCloseable {

    /** The body of {@code /test.txt}: 18 bytes, the size the benchmark figures were measured with. */
    public static final String TEST_TXT = "Hello, Stampede!!\n";

    private static final String NGINX = "/usr/sbin/nginx";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);
    private static final int START_ATTEMPTS = 3;

    private final Options options;
    private final Path dir;
    private final int port;
    private final Process process;
    private final Thread shutdownHook;

    private NginxServer(Options options, Path dir, int port, Process process) {
        this.options = options;
        this.dir = dir;
        this.port = port;
        this.process = process;
        this.shutdownHook = new Thread(this::stopAndDelete, "nginx-cleanup-" + port);
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /**
     * What to start: worker count, connections per worker, whether to keep an access log (off for benchmarks, as the
     * issue asks), and directives a test adds to the http and server blocks (a site of its own: locations, log
     * formats).
     */
    public record Options(int workers, int workerConnections, boolean accessLog, String httpExtra,
                          String serverExtra) {
        /** Room for tens of thousands of held connections per worker. */
        static final int WORKER_CONNECTIONS = 16384;

        public Options {
            if (workers < 1) {
                throw new IllegalArgumentException("workers must be at least 1, got " + workers);
            }
            if (workerConnections < 2) {
                throw new IllegalArgumentException("workerConnections must be at least 2 (the listening socket takes "
                        + "one), got " + workerConnections);
            }
        }

        public static Options defaults() {
            return new Options(1, WORKER_CONNECTIONS, false, "", "");
        }

        public Options withWorkers(int count) {
            return new Options(count, workerConnections, accessLog, httpExtra, serverExtra);
        }

        /** nginx's worker_connections: a small number makes nginx run out of room, as a misconfigured server does. */
        public Options withWorkerConnections(int count) {
            return new Options(workers, count, accessLog, httpExtra, serverExtra);
        }

        /** {@code http} adds to the http block, {@code server} to the server block; "$dir" is nginx's folder. */
        public Options withSite(String http, String server) {
            return new Options(workers, workerConnections, accessLog, http, server);
        }

        /**
         * Logs every request with nginx's connection serial number first, so a test can count the TCP connections
         * the server really saw (see {@link #accessLogConnections()}).
         */
        public Options withAccessLog() {
            return new Options(workers, workerConnections, true, httpExtra, serverExtra);
        }
    }

    public static NginxServer start(Options options) {
        Path dir;
        try {
            dir = Files.createTempDirectory("stampede-nginx-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary folder for nginx", e);
        }
        try {
            NginxFiles.writeContent(dir);
            IllegalStateException last = null;
            for (int attempt = 0; attempt < START_ATTEMPTS; attempt++) {
                int port = FreePort.loopback();
                try {
                    return launch(options, dir, port);
                } catch (IllegalStateException e) {
                    // Usually another process took the port between FreePort and nginx's bind: try another one.
                    last = e;
                }
            }
            throw last;
        } catch (RuntimeException e) {
            Folders.deleteQuietly(dir);
            throw e;
        }
    }

    private static NginxServer launch(Options options, Path dir, int port) {
        NginxFiles.writeConfig(dir, options, port);
        ProcessBuilder builder = new ProcessBuilder(NGINX, "-p", dir + "/", "-e", dir.resolve("error.log").toString(),
                "-c", dir.resolve("nginx.conf").toString(), "-g", "daemon off;")
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("nginx.out").toFile());
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + NGINX + " (install the Debian package nginx-light)", e);
        }
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("nginx exited with " + process.exitValue() + " on port " + port
                        + ": " + Folders.readQuietly(dir.resolve("error.log")) + Folders.readQuietly(dir.resolve("nginx.out")));
            }
            // The master listens before it forks the workers: wait for both, so callers see every process.
            if (FreePort.accepts(port) && process.descendants().count() >= options.workers()) {
                return new NginxServer(options, dir, port, process);
            }
            sleep(20);
        }
        ProcessTrees.kill(process);
        throw new IllegalStateException("nginx did not accept on 127.0.0.1:" + port + " within " + START_TIMEOUT);
    }


    public int port() {
        return port;
    }

    public String host() {
        return "127.0.0.1";
    }

    public String url(String path) {
        return "http://" + host() + ":" + port + path;
    }

    /** nginx's own folder (configuration, logs). */
    public Path dir() {
        return dir;
    }

    public Options options() {
        return options;
    }

    public long masterPid() {
        return process.pid();
    }

    /** The master and its workers, for CPU accounting. */
    public List<ProcessHandle> processes() {
        return ProcessTrees.withDescendants(process.toHandle());
    }

    /**
     * nginx's connection serial numbers, one per logged request, in log order. Only with
     * {@link Options#withAccessLog()}; nginx writes a request's line when the response is sent.
     */
    public List<Long> accessLogConnections() {
        if (!options.accessLog()) {
            throw new IllegalStateException("nginx was started without an access log; use Options.withAccessLog()");
        }
        try {
            return Files.readAllLines(dir.resolve("access.log"), StandardCharsets.UTF_8).stream()
                    .filter(line -> !line.isBlank())
                    .map(line -> Long.parseLong(line.substring(0, line.indexOf(' '))))
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read nginx's access log", e);
        }
    }

    /** Empties the access log, so one server can serve several runs that are counted separately. */
    public void clearAccessLog() {
        try {
            // Truncate in place: nginx keeps the file open and appends at the end (O_APPEND).
            Files.write(dir.resolve("access.log"), new byte[0]);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot truncate nginx's access log", e);
        }
    }

    @Override
    public void close() {
        stopAndDelete();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException alreadyShuttingDown) {
            // The hook is running or has run: nothing left to undo.
        }
    }

    private void stopAndDelete() {
        if (process.isAlive()) {
            List<ProcessHandle> tree = processes();
            process.destroy(); // SIGTERM: nginx's fast shutdown, the master stops its workers
            try {
                if (!process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                    tree.forEach(ProcessHandle::destroyForcibly);
                }
            } catch (InterruptedException e) {
                tree.forEach(ProcessHandle::destroyForcibly);
                Thread.currentThread().interrupt();
            }
        }
        Folders.deleteQuietly(dir);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for nginx", e);
        }
    }
}
