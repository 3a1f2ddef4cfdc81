/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.plugins;

import io.stampede.cli.CliNames;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The plugin jars of one JMeter home, in a folder beside it ({@code <home>-plugins}, Maven's repository layout),
 * fetched from Maven Central and checked against the SHA-256 the build recorded; the home itself is not changed,
 * its runs get the jars by search_paths. {@code added.txt} lists the plugins added, so every later run, GUI and
 * engine of this home gets them too.
 */
public final class PluginCache {

    /** Maven Central; -Dstampede.maven.repository points elsewhere (a mirror, or a test's closed port). */
    static final String CENTRAL = "https://repo1.maven.org/maven2/";

    private final Path dir;
    private final PluginIndex index;
    private final URI repository;

    PluginCache(Path dir, PluginIndex index, URI repository) {
        this.dir = dir;
        this.index = index;
        this.repository = repository;
    }

    /** The cache of a JMeter home: {@code src/target/jmeter-home-plugins} for the bundled one. */
    public static PluginCache beside(Path home, PluginIndex index) {
        String repo = System.getProperty(CliNames.MAVEN_REPOSITORY, CENTRAL);
        return new PluginCache(home.resolveSibling(home.getFileName() + "-plugins"), index,
                URI.create(repo.endsWith("/") ? repo : repo + "/"));
    }

    public Path dir() {
        return dir;
    }

    /** The plugins added to this home so far, by id. */
    public List<PluginIndex.Plugin> added() throws IOException {
        Path list = dir.resolve("added.txt");
        List<PluginIndex.Plugin> out = new ArrayList<>();
        if (Files.isRegularFile(list)) {
            for (String id : Files.readAllLines(list)) {
                if (!id.isBlank()) {
                    index.plugin(id.trim()).ifPresent(out::add);
                }
            }
        }
        return out;
    }

    /** Remembers plugins as added (after their jars are in place). */
    public void remember(List<PluginIndex.Plugin> plugins) throws IOException {
        Set<String> ids = new LinkedHashSet<>();
        added().forEach(p -> ids.add(p.id()));
        plugins.forEach(p -> ids.add(p.id()));
        Files.createDirectories(dir);
        Path tmp = Files.createTempFile(dir, "added", ".tmp");
        Files.write(tmp, ids);
        Files.move(tmp, dir.resolve("added.txt"), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** Where a jar goes (and where a user without network puts it). */
    public Path path(Coordinates c) {
        return dir.resolve(c.repositoryPath());
    }

    /**
     * The jars, each verified, fetched first when absent. When some cannot be fetched, none is half-written and the
     * message lists every missing jar with the folder to put it in.
     */
    public List<Path> provide(List<Coordinates> jars) throws PluginException, IOException {
        List<Path> out = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        HttpClient http = null;
        for (Coordinates c : jars) {
            PluginIndex.Jar expected = index.jar(c).orElseThrow(() -> new IllegalStateException(c + " is not indexed"));
            Path target = path(c);
            if (Files.isRegularFile(target)) {
                String bad = verify(target, expected);
                if (bad == null) {
                    out.add(target);
                    continue;
                }
                failures.add(c + ": " + target + " " + bad);
                continue;
            }
            if (http == null) {
                http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10))
                        .followRedirects(HttpClient.Redirect.NORMAL).build();
            }
            String problem = fetch(http, c, expected, target);
            if (problem == null) {
                out.add(target);
            } else {
                failures.add(problem);
            }
        }
        if (!failures.isEmpty()) {
            throw new PluginException(offline(jars, failures));
        }
        return out;
    }

    private String offline(List<Coordinates> jars, List<String> failures) {
        StringBuilder m = new StringBuilder("cannot get every plugin jar from " + repository + ":\n");
        failures.forEach(f -> m.append("    ").append(f).append('\n'));
        m.append("  without network, download these on a machine that has it and put each at the path shown"
                + " (its SHA-256 is checked):\n");
        for (Coordinates c : jars) {
            if (!Files.isRegularFile(path(c))) {
                m.append("    ").append(repository).append(c.urlPath()).append("\n      -> ").append(path(c))
                        .append('\n');
            }
        }
        m.append("  or give -Dstampede.maven.repository=URL of a reachable mirror (STAMPEDE_JAVA_OPTS)");
        return m.toString();
    }

    /** Null when fetched and verified; else what went wrong. */
    private String fetch(HttpClient http, Coordinates c, PluginIndex.Jar expected, Path target) throws IOException {
        URI uri = repository.resolve(c.urlPath());
        Files.createDirectories(target.getParent());
        Path tmp = Files.createTempFile(target.getParent(), c.artifact(), ".part");
        try {
            HttpResponse<InputStream> response;
            try {
                response = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(60)).GET().build(),
                        HttpResponse.BodyHandlers.ofInputStream());
            } catch (IOException e) {
                return c + ": " + uri + " unreachable (" + describe(e) + ")";
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return c + ": interrupted";
            }
            try (InputStream body = response.body()) {
                if (response.statusCode() != 200) {
                    return c + ": " + uri + " answered HTTP " + response.statusCode();
                }
                Files.copy(body, tmp, StandardCopyOption.REPLACE_EXISTING);
            }
            String bad = verify(tmp, expected);
            if (bad != null) {
                return c + ": the download from " + uri + " " + bad;
            }
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return null;
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    private static String describe(IOException e) {
        String m = e.getMessage();
        return e.getClass().getSimpleName() + (m == null || m.isBlank() ? "" : ": " + m);
    }

    /** Null when the file is the jar the build indexed. */
    static String verify(Path file, PluginIndex.Jar expected) throws IOException {
        String sha = IndexBuilder.sha256(file);
        if (!sha.equals(expected.sha256())) {
            return "has SHA-256 " + sha + ", expected " + expected.sha256() + " (not the jar the catalogue pins;"
                    + " delete it)";
        }
        return null;
    }
}
