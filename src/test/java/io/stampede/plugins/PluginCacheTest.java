/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.plugins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Fetching into the cache: verified against the pinned SHA-256; unreachable, the message says where to put what. */
class PluginCacheTest {

    @TempDir
    Path dir;

    @Test
    void offlineTheMessageNamesEachMissingJarAndWhereItGoesAndNothingIsWritten() throws Exception {
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort(); // nothing listens there once closed
        }
        PluginIndex index = FakeHome.index("plugin p g:p:1 h.i:lib:2",
                "jar g:p:1 " + "0".repeat(64) + " 10", "jar h.i:lib:2 " + "1".repeat(64) + " 10");
        Path cacheDir = dir.resolve("jmeter-home-plugins");
        PluginCache cache = new PluginCache(cacheDir, index, URI.create("http://127.0.0.1:" + closed + "/"));
        PluginException e = assertThrows(PluginException.class,
                () -> cache.provide(index.plugin("p").orElseThrow().jars()));
        String m = e.getMessage();
        assertTrue(m.startsWith("cannot get every plugin jar from http://127.0.0.1:" + closed + "/"), m);
        assertTrue(m.contains("g:p:1: http://127.0.0.1:" + closed + "/g/p/1/p-1.jar unreachable (ConnectException"), m);
        assertTrue(m.contains("without network, download these on a machine that has it and put each at the path"), m);
        assertTrue(m.contains("/g/p/1/p-1.jar\n      -> " + cacheDir.resolve("g/p/1/p-1.jar")), m);
        assertTrue(m.contains("/h/i/lib/2/lib-2.jar\n      -> " + cacheDir.resolve("h/i/lib/2/lib-2.jar")), m);
        try (Stream<Path> files = Files.walk(cacheDir)) {
            assertEquals(List.of(), files.filter(Files::isRegularFile).toList(), "no partial download left");
        }
    }

    @Test
    void aFetchedJarIsKeptOnlyWhenItsChecksumIsThePinnedOne() throws Exception {
        byte[] good = "the real jar".getBytes();
        Path sample = Files.write(dir.resolve("sample.jar"), good);
        String sha = IndexBuilder.sha256(sample);
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", x -> {
            byte[] body = x.getRequestURI().getPath().endsWith("/tampered-1.jar") ? "evil".getBytes() : good;
            x.sendResponseHeaders(200, body.length);
            try (OutputStream out = x.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        try {
            PluginIndex index = FakeHome.index("plugin p g:p:1 ", "plugin t g:tampered:1 ",
                    "jar g:p:1 " + sha + " " + good.length, "jar g:tampered:1 " + sha + " " + good.length);
            PluginCache cache = new PluginCache(dir.resolve("cache"), index,
                    URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/"));
            List<Path> jars = cache.provide(List.of(Coordinates.parse("g:p:1")));
            assertEquals(List.of(dir.resolve("cache/g/p/1/p-1.jar")), jars);
            assertEquals("the real jar", Files.readString(jars.get(0)));

            PluginException e = assertThrows(PluginException.class,
                    () -> cache.provide(List.of(Coordinates.parse("g:tampered:1"))));
            assertTrue(e.getMessage().contains("tampered-1.jar has SHA-256 "), e.getMessage());
            assertTrue(e.getMessage().contains("expected " + sha), e.getMessage());
            assertTrue(Files.notExists(dir.resolve("cache/g/tampered/1/tampered-1.jar")), "a bad download is not kept");
        } finally {
            server.stop(0);
        }
    }
}
