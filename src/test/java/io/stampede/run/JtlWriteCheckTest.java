/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.run;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A JTL cut short is reported with the folder, what was kept and the fix; a whole one on a roomy disk is not. */
class JtlWriteCheckTest {

    @Test
    void aWholeJtlOnADiskWithRoomPasses(@TempDir Path dir) {
        JtlWriteCheck check = new JtlWriteCheck(RunFiles.in(dir, false));
        assertTrue(check.sample().isEmpty(), "no warning while there is room");
        check.jtlEnded(false);
        assertTrue(check.lost(10).isEmpty());
    }

    @Test
    void aJtlEndingInsideARowIsReportedWithTheFolderAndTheFix(@TempDir Path dir) {
        JtlWriteCheck check = new JtlWriteCheck(RunFiles.in(dir, false));
        check.jtlEnded(true);
        Optional<String> lost = check.lost(1234);
        assertTrue(lost.isPresent(), "a JTL cut inside a row is not summarized");
        String m = lost.get();
        assertTrue(m.contains(dir.resolve("results.jtl") + " ends in the middle of a row"), m);
        assertTrue(m.contains("holds only the first 1,234 samples"), m);
        assertTrue(m.contains("df -h " + dir) && m.contains("give --out a folder on a disk with room"), m);
    }
}
