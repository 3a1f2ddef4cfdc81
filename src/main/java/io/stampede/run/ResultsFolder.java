/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.run;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Creates the folder a run writes to. The default name holds the start time to the second, so two runs of one plan
 * started in the same second would meet there: the folder is claimed with one atomic create, and a name already
 * taken gets the next suffix (-2, -3, ...) instead of being checked first and shared afterwards.
 */
final class ResultsFolder {

    /** More runs of one plan in one second than this is a loop gone wrong, not a load test. */
    static final int MAX_SUFFIX = 1000;

    private ResultsFolder() {}

    /** Claims {@code base}, or else the first of {@code base-2}, {@code base-3}, ... nobody has claimed yet. */
    static Path claim(Path base) throws IOException {
        Files.createDirectories(base.getParent());
        for (int n = 1; n <= MAX_SUFFIX; n++) {
            Path candidate = n == 1 ? base : base.resolveSibling(base.getFileName() + "-" + n);
            try {
                return Files.createDirectory(candidate);
            } catch (FileAlreadyExistsException taken) {
                // another run of this plan started in the same second: try the next name
            }
        }
        throw new IOException(base + " and " + (MAX_SUFFIX - 1) + " suffixed names are taken: give --out");
    }
}
