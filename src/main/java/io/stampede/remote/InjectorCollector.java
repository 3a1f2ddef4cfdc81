/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.remote;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.stampede.injector.InjectorSeries;
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
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * The controller's end of the engines' injector series in a distributed run: a small HTTP endpoint that the
 * monitor inside each engine started by `stampede server` sends its once-a-second rows to (the engines learn its
 * address from the -G property {@value #PROPERTY}), written into the run folder as injector-HOST_PORT.csv per
 * engine. It listens on the address the engines already call the controller back on (RMI), under a random path,
 * so rows of another run cannot land here.
 */
public final class InjectorCollector implements AutoCloseable {
    public static final String PROPERTY = "stampede.injector_collector";
    private static final String ENGINE_HEADER = "X-Stampede-Engine";
    private static final Pattern ENGINE = Pattern.compile("[A-Za-z0-9._-]{1,100}:\\d{1,5}");

    private final HttpServer server;
    private final Path dir;
    private final String path = "/" + UUID.randomUUID();
    private final Map<String, Integer> rows = new HashMap<>();

    private InjectorCollector(HttpServer server, Path dir) {
        this.server = server;
        this.dir = dir;
    }

    /** Listens on {@code address}, any free port; rows go to files in {@code dir}. */
    public static InjectorCollector start(String address, Path dir) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(address, 0), 16);
        InjectorCollector c = new InjectorCollector(server, dir);
        server.createContext("/", c::handle);
        server.start();
        return c;
    }

    /** What the engines are given in {@value #PROPERTY}. */
    public String url() {
        InetSocketAddress a = server.getAddress();
        return "http://" + a.getHostString() + ":" + a.getPort() + path;
    }

    /** The file of one engine's series in the run folder: injector-HOST_PORT.csv. */
    public static Path file(Path dir, RemoteEngine engine) {
        return dir.resolve(fileName(engine.toString()));
    }

    private static String fileName(String engine) {
        return "injector-" + engine.replace(':', '_') + ".csv";
    }

    private void handle(HttpExchange x) throws IOException {
        try (InputStream in = x.getRequestBody()) {
            String engine = x.getRequestHeaders().getFirst(ENGINE_HEADER);
            if (!"POST".equals(x.getRequestMethod()) || !path.equals(x.getRequestURI().getPath())) {
                x.sendResponseHeaders(404, -1);
                return;
            }
            List<String> lines = new String(in.readNBytes(4096), StandardCharsets.US_ASCII).lines().toList();
            if (engine == null || !ENGINE.matcher(engine).matches() || lines.size() != 2
                    || !lines.get(0).equals(InjectorSeries.HEADER) || !lines.get(1).matches("[0-9.,]+")) {
                x.sendResponseHeaders(400, -1);
                return;
            }
            append(engine, lines.get(1));
            x.sendResponseHeaders(204, -1);
        } finally {
            x.close();
        }
    }

    /** The engine's row with its second counted from the engine's first row in this run. */
    private synchronized void append(String engine, String row) throws IOException {
        Path f = dir.resolve(fileName(engine));
        int n = rows.merge(engine, 1, Integer::sum) - 1;
        String line = n + row.substring(row.indexOf(',')) + "\n";
        String text = n == 0 ? InjectorSeries.HEADER + "\n" + line : line;
        Files.writeString(f, text, StandardCharsets.US_ASCII, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
