/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.doctor;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/** {@link SystemFiles} below a root directory ("/" for the live system). */
record RootedFiles(Path root) implements SystemFiles {

    private Path resolve(String absolutePath) {
        String relative = absolutePath.startsWith("/") ? absolutePath.substring(1) : absolutePath;
        return root.resolve(relative);
    }

    @Override
    public Optional<String> read(String absolutePath) {
        try {
            // Not Files.readAllBytes: /proc files report size 0, and it then reads one byte first, while a
            // sysctl file returns EOF to any read that does not start at offset 0. One large first read works.
            try (InputStream in = Files.newInputStream(resolve(absolutePath))) {
                return Optional.of(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            }
        } catch (IOException | SecurityException e) {
            return Optional.empty();
        }
    }

    @Override
    public List<String> list(String absoluteDir) {
        try (Stream<Path> entries = Files.list(resolve(absoluteDir))) {
            return entries.map(p -> p.getFileName().toString()).sorted().toList();
        } catch (IOException | SecurityException e) {
            return List.of();
        }
    }

    @Override
    public Optional<String> readLink(String absolutePath) {
        try {
            return Optional.of(Files.readSymbolicLink(resolve(absolutePath)).toString());
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return Optional.empty();
        }
    }
}
