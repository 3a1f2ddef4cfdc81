/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs that start in the same second never share a results folder. */
class ResultsFolderTest {

    @Test
    void aTakenNameGetsTheNextSuffix(@TempDir Path dir) throws Exception {
        Path base = dir.resolve("results").resolve("20260101-120000-quickstart");
        assertEquals(base, ResultsFolder.claim(base), "the parent is created, the first run gets the plain name");
        assertEquals(dir.resolve("results/20260101-120000-quickstart-2"), ResultsFolder.claim(base));
        assertEquals(dir.resolve("results/20260101-120000-quickstart-3"), ResultsFolder.claim(base));
    }

    @Test
    void runsClaimingAtTheSameInstantGetAFolderEach(@TempDir Path dir) throws Exception {
        Path base = dir.resolve("20260101-120000-quickstart");
        int runs = 8;
        CyclicBarrier together = new CyclicBarrier(runs);
        ExecutorService pool = Executors.newFixedThreadPool(runs);
        try {
            List<Future<Path>> claimed = new ArrayList<>();
            for (int i = 0; i < runs; i++) {
                claimed.add(pool.submit(() -> {
                    together.await(10, TimeUnit.SECONDS);
                    return ResultsFolder.claim(base);
                }));
            }
            Set<Path> folders = new HashSet<>();
            for (Future<Path> f : claimed) {
                Path folder = f.get(10, TimeUnit.SECONDS);
                assertTrue(Files.isDirectory(folder), folder.toString());
                folders.add(folder);
            }
            assertEquals(runs, folders.size(), "every run has a folder of its own: " + folders);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aFileInTheWayIsNotTakenForAFolder(@TempDir Path dir) throws Exception {
        Path base = dir.resolve("20260101-120000-quickstart");
        Files.writeString(base, "not a folder");
        assertEquals(dir.resolve("20260101-120000-quickstart-2"), ResultsFolder.claim(base));
    }
}
