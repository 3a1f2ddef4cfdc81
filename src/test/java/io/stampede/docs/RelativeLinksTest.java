/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The link checker finds what a reader would find broken, and only that. */
class RelativeLinksTest {

    @TempDir
    Path repo;

    @Test
    void aLinkToAMissingFileIsReportedWithItsLine() throws IOException {
        write("README.md", "# Title\n\nSee [the docs](docs/missing.md).\n");
        assertEquals(List.of("README.md:3: (docs/missing.md) points to docs/missing.md, which does not exist"),
                new RelativeLinks(repo).broken(Path.of("README.md")));
    }

    @Test
    void aLinkToAMissingHeadingIsReported() throws IOException {
        write("docs/a.md", "# A\n\n## Settings\n");
        write("README.md", "[ok](docs/a.md#settings) [gone](docs/a.md#setting) [self](#title) [no](#nowhere)\n# Title\n");
        assertEquals(List.of("README.md:1: (docs/a.md#setting) names #setting, which is no heading of docs/a.md",
                        "README.md:1: (#nowhere) names #nowhere, which is no heading of README.md"),
                new RelativeLinks(repo).broken(Path.of("README.md")));
    }

    @Test
    void linksResolveFromThePagesOwnFolder() throws IOException {
        write("docs/a.md", "[up](../README.md#layout) [picture](images/x.png) [folder](../plans/)\n");
        write("docs/images/x.png", "");
        write("plans/p.jmx", "");
        write("README.md", "## Layout\n");
        assertEquals(List.of(), new RelativeLinks(repo).broken(Path.of("docs/a.md")));
        write("docs/b.md", "[wrong base](docs/images/x.png) [outside](../../etc/passwd)\n");
        assertEquals(List.of("docs/b.md:1: (docs/images/x.png) points to docs/docs/images/x.png, which does not exist",
                        "docs/b.md:1: (../../etc/passwd) leaves the repository"),
                new RelativeLinks(repo).broken(Path.of("docs/b.md")));
    }

    @Test
    void externalLinksAndLinksInsideCodeAreNotChecked() throws IOException {
        write("README.md", "[site](https://example.org/x#y) [mail](mailto:a@b)\n"
                + "`[not a link](nowhere.md)`\n```\n[in a block](nowhere.md)\n```\n");
        assertEquals(List.of(), new RelativeLinks(repo).broken(Path.of("README.md")));
    }

    @Test
    void anchorsAreSpelledAsGitHubSpellsThem() {
        assertEquals("on-a-real-ipvs-kernel-cluster-lab---vm-cluster-validate---vm",
                MarkdownPage.slug("On a real IPVS kernel: `cluster lab --vm`, `cluster validate --vm`"));
        assertEquals("http2-against-h2load", MarkdownPage.slug("HTTP/2 against h2load"));
        assertEquals("the-injectors-own-share-of-the-time", MarkdownPage.slug("The injector's own share of the time"));
        assertEquals("throughput-with-the-threads-own-io-stampedeio_modethread",
                MarkdownPage.slug("Throughput with the thread's own I/O (stampede.io_mode=thread)"));
        assertEquals("see-the-docs", MarkdownPage.slug("See [the docs](docs/README.md)"));
        assertEquals(List.of("a", "a-1", "a-2"), List.copyOf(MarkdownPage.parse("# A\n## A\n### A\n").anchors()));
    }

    private void write(String path, String text) throws IOException {
        Path p = repo.resolve(path);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
    }
}
