/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Checks the relative links of Markdown pages in one repository: the file or folder each points to exists inside
 * the repository, and a {@code #fragment} names a heading of the target page (or of the page itself). Links with a
 * scheme ({@code https:}, {@code mailto:}) are someone else's to keep.
 */
final class RelativeLinks {
    private static final Pattern SCHEME = Pattern.compile("^[a-zA-Z][a-zA-Z0-9+.-]*:");

    private final Path repository;
    private final Map<Path, MarkdownPage> pages = new HashMap<>();

    RelativeLinks(Path repository) {
        this.repository = repository.toAbsolutePath().normalize();
    }

    /** One line per link of {@code page} that points nowhere, naming the page, the line, the link and what is wrong. */
    List<String> broken(Path page) {
        Path source = repository.resolve(page).normalize();
        List<String> problems = new ArrayList<>();
        for (MarkdownPage.Link link : page(source).links()) {
            String problem = problem(source, link.target());
            if (problem != null) {
                problems.add(repository.relativize(source) + ":" + link.line() + ": (" + link.target() + ") " + problem);
            }
        }
        return problems;
    }

    private String problem(Path source, String target) {
        if (target.isEmpty()) {
            return "is empty";
        }
        if (SCHEME.matcher(target).find() || target.startsWith("//")) {
            return null;
        }
        int hash = target.indexOf('#');
        String path = URLDecoder.decode(hash < 0 ? target : target.substring(0, hash), StandardCharsets.UTF_8);
        String anchor = hash < 0 ? null : target.substring(hash + 1);
        Path resolved = path.isEmpty() ? source
                : path.startsWith("/") ? repository.resolve(path.substring(1)).normalize()
                : source.getParent().resolve(path).normalize();
        if (!resolved.startsWith(repository)) {
            return "leaves the repository";
        }
        if (!Files.exists(resolved)) {
            return "points to " + repository.relativize(resolved) + ", which does not exist";
        }
        if (anchor == null) {
            return null;
        }
        if (!resolved.getFileName().toString().endsWith(".md") || Files.isDirectory(resolved)) {
            return "has a #fragment, but " + repository.relativize(resolved) + " is not a Markdown page";
        }
        if (!page(resolved).anchors().contains(anchor)) {
            return "names #" + anchor + ", which is no heading of " + repository.relativize(resolved);
        }
        return null;
    }

    private MarkdownPage page(Path file) {
        return pages.computeIfAbsent(file, f -> {
            try {
                return MarkdownPage.parse(Files.readString(f));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }
}
