/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.cluster.Fixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Every relative link in README.md and docs/ leads to a file, and to a heading where it names one. */
class DocumentationLinksTest {

    @Test
    void everyRelativeLinkOfTheReadmeAndTheDocsResolves() throws IOException {
        Path repo = Fixtures.repo();
        List<Path> pages = new ArrayList<>();
        pages.add(Path.of("README.md"));
        try (Stream<Path> s = Files.walk(repo.resolve("docs"))) {
            s.filter(p -> p.toString().endsWith(".md")).map(repo::relativize).sorted().forEach(pages::add);
        }
        assertTrue(pages.size() > 10, "README.md and the docs/ pages, found " + pages);
        RelativeLinks links = new RelativeLinks(repo);
        List<String> broken = new ArrayList<>();
        for (Path page : pages) {
            broken.addAll(links.broken(page));
        }
        assertEquals(List.of(), broken, "links that point nowhere (fix the link, or the heading it names)");
    }
}
