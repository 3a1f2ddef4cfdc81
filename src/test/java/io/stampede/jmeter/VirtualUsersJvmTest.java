/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.jmeter;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Compact object headers only where they are a product option; log4j2's per-thread caches off everywhere. */
class VirtualUsersJvmTest {
    @Test
    void java25GetsCompactHeaders() {
        assertEquals(List.of("-Dlog4j2.enableThreadlocals=false", "-Dlog4j2.enableDirectEncoders=false",
                "-XX:+UseStringDeduplication", "-XX:+UseCompactObjectHeaders"),
                VirtualUsersJvm.options(new JavaRuntime(Path.of("/j25"), 25)));
    }

    @Test
    void java21To24DoNot() {
        // 21-23 do not know the option (the JVM would not start); in 24 it is experimental.
        List<String> without = List.of("-Dlog4j2.enableThreadlocals=false", "-Dlog4j2.enableDirectEncoders=false",
                "-XX:+UseStringDeduplication");
        assertEquals(without, VirtualUsersJvm.options(new JavaRuntime(Path.of("/j21"), 21)));
        assertEquals(without, VirtualUsersJvm.options(new JavaRuntime(Path.of("/j24"), 24)));
    }
}
