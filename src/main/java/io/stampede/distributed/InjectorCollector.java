/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.distributed;

import io.stampede.cli.HttpServerLimits;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.stampede.names.PluginNames;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * The controller's end of the engines' injector series in a distributed run: a small HTTP endpoint that the
 * monitor inside each engine started by `stampede server` sends its once-a-second rows to (the engines learn its
 * address from the -G property {@value PluginNames#INJECTOR_COLLECTOR}), written into the run folder as injector-HOST_PORT.csv per
 * engine. It listens on the address the engines already call the controller back on (RMI), under a random path,
 * so rows of another run cannot land here.
 *
 * <p>Whoever reaches the address can hold a connection open: requests run on threads of their own (up to
 * {@value #THREADS} at once), not on the server's single dispatcher, and the JDK server closes a connection whose request has not
 * arrived whole within {@value #REQUEST_SECONDS} s, so a half-sent request delays no engine's rows. A row is
 * checked whole before anything is counted or written.
 */
public final class InjectorCollector implements AutoCloseable {
    private static final Pattern ENGINE = Pattern.compile("[A-Za-z0-9._-]{1,100}:\\d{1,5}");
    /** A row of the monitor: as many numbers (or empty cells) as the header has columns. */
    private static final Pattern ROW = Pattern.compile("\\d{1,12}(,[0-9.]{0,20})"
            + "{" + (PluginNames.INJECTOR_SERIES_HEADER.split(",").length - 1) + "}");
    private static final Pattern DELIVERY_ROW = Pattern.compile("\\d{1,18},\\d{1,18},\\d{1,18}");
    /** The JDK server's time limit for a whole request, read once when its first server starts. */
    static final int REQUEST_SECONDS = HttpServerLimits.REQUEST_SECONDS;
    private static final int THREADS = 32;

    private final HttpServer server;
    private final ExecutorService threads;
    private final Path dir;
    private final String path = "/" + UUID.randomUUID();
    private final Map<String, Integer> rows = new HashMap<>();

    private InjectorCollector(HttpServer server, ExecutorService threads, Path dir) {
        this.server = server;
        this.threads = threads;
        this.dir = dir;
    }

    /** Listens on {@code address}, any free port; rows go to files in {@code dir}. */
    public static InjectorCollector start(String address, Path dir) throws IOException {
        HttpServerLimits.apply();
        HttpServer server = HttpServer.create(new InetSocketAddress(address, 0), 16);
        // Threads come and go with the requests; past THREADS at once a request is refused (its connection closed).
        ExecutorService threads = new ThreadPoolExecutor(0, THREADS, 30, TimeUnit.SECONDS, new SynchronousQueue<>(), r -> {
            Thread t = new Thread(r, "stampede-injector-collector");
            t.setDaemon(true);
            return t;
        });
        InjectorCollector c = new InjectorCollector(server, threads, dir);
        server.createContext("/", c::handle);
        server.setExecutor(threads);
        server.start();
        return c;
    }

    /** What the engines are given in {@value PluginNames#INJECTOR_COLLECTOR}. */
    public String url() {
        InetSocketAddress a = server.getAddress();
        return "http://" + a.getHostString() + ":" + a.getPort() + path;
    }

    /** The file of one engine's series in the run folder: injector-HOST_PORT.csv. */
    public static Path file(Path dir, RemoteEngine engine) {
        return dir.resolve(fileName(engine.toString()));
    }

    /**
     * An engine's sender counts at the end of its test, {@code {sent, dropped, unconfirmed}}; empty when it sent none (not
     * started by `stampede server`, or it could not reach this controller).
     */
    public static Optional<long[]> delivery(Path dir, RemoteEngine engine) throws IOException {
        Path f = dir.resolve(deliveryFileName(engine.toString()));
        if (!Files.exists(f)) {
            return Optional.empty();
        }
        List<String> lines = Files.readAllLines(f, StandardCharsets.US_ASCII);
        String[] cells = lines.get(1).split(",");
        return Optional.of(new long[] {Long.parseLong(cells[0]), Long.parseLong(cells[1]), Long.parseLong(cells[2])});
    }

    private static String deliveryFileName(String engine) {
        return "sender-" + engine.replace(':', '_') + ".csv";
    }

    private static String fileName(String engine) {
        return "injector-" + engine.replace(':', '_') + ".csv";
    }

    private void handle(HttpExchange x) throws IOException {
        try (InputStream in = x.getRequestBody()) {
            String engine = x.getRequestHeaders().getFirst(PluginNames.ENGINE_HTTP_HEADER);
            if (!"POST".equals(x.getRequestMethod()) || !path.equals(x.getRequestURI().getPath())) {
                x.sendResponseHeaders(404, -1);
                return;
            }
            List<String> lines = new String(in.readNBytes(4096), StandardCharsets.US_ASCII).lines().toList();
            if (engine == null || !ENGINE.matcher(engine).matches() || lines.size() != 2) {
                x.sendResponseHeaders(400, -1);
            } else if (lines.get(0).equals(PluginNames.INJECTOR_SERIES_HEADER) && ROW.matcher(lines.get(1)).matches()) {
                append(engine, lines.get(1));
                x.sendResponseHeaders(204, -1);
            } else if (lines.get(0).equals(PluginNames.DELIVERY_HEADER) && DELIVERY_ROW.matcher(lines.get(1)).matches()) {
                Files.writeString(dir.resolve(deliveryFileName(engine)), PluginNames.DELIVERY_HEADER + "\n" + lines.get(1) + "\n",
                        StandardCharsets.US_ASCII);
                x.sendResponseHeaders(204, -1);
            } else {
                x.sendResponseHeaders(400, -1);
            }
        } finally {
            x.close();
        }
    }

    /** The engine's row with its second counted from the engine's first row in this run. */
    private synchronized void append(String engine, String row) throws IOException {
        Path f = dir.resolve(fileName(engine));
        int n = rows.merge(engine, 1, Integer::sum) - 1;
        String line = n + row.substring(row.indexOf(',')) + "\n";
        String text = n == 0 ? PluginNames.INJECTOR_SERIES_HEADER + "\n" + line : line;
        Files.writeString(f, text, StandardCharsets.US_ASCII, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
