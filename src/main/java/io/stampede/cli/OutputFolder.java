/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * The rule for the folder a command writes its results into (run's --out, merge's and compare's -o): new or empty,
 * so that earlier results are never mixed into a new run's.
 */
public final class OutputFolder {
    private OutputFolder() {
    }

    /**
     * Why {@code dir} cannot take a command's results, or null when it can (it does not exist, or is an empty folder).
     *
     * @param option the option that named it, as the user types it ({@code --out}, {@code -o})
     */
    public static String refusal(String option, Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return null;
        }
        if (!Files.isDirectory(dir)) {
            return option + " " + dir + " is a file: give a new or empty folder";
        }
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.findAny().isPresent() ? option + " " + dir + " is not empty: give a new or empty folder, so"
                    + " earlier results are not mixed in" : null;
        }
    }
}
