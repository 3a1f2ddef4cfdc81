/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.cluster.Fixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The checked-in examples must be exactly what rendering their description gives today. */
class ExamplesTest {

    @ParameterizedTest
    @ValueSource(strings = {"lvs/example", "haproxy/example", "lvs/example-h2", "haproxy/example-h2", "lvs/example-vm"})
    void renderingReproducesTheCheckedInExample(String example) throws IOException {
        Path dir = Fixtures.repo().resolve(example);
        Map<String, String> expected = new TreeMap<>();
        Path rendered = dir.resolve("rendered");
        try (Stream<Path> s = Files.walk(rendered)) {
            for (Path p : s.filter(Files::isRegularFile).filter(p -> !p.endsWith(OutputWriter.MARKER)).toList()) {
                expected.put(rendered.relativize(p).toString(), Files.readString(p));
            }
        }
        List<RenderedFile> files = new ClusterRenderer().render(Fixtures.spec(Files.readString(dir.resolve("cluster.yaml"))));
        Map<String, String> actual = files.stream()
                .collect(Collectors.toMap(RenderedFile::relativePath, RenderedFile::content, (a, b) -> a, TreeMap::new));
        String hint = "re-render with: java -jar src/target/stampede.jar cluster render " + example
                + "/cluster.yaml -o " + example + "/rendered --force";
        assertTrue(Files.isRegularFile(rendered.resolve(OutputWriter.MARKER)), "--force replaces only a marked"
                + " rendering; " + hint);
        assertEquals(expected.keySet(), actual.keySet(), hint);
        for (String name : expected.keySet()) {
            assertEquals(expected.get(name), actual.get(name), name + " differs; " + hint);
        }
    }
}
