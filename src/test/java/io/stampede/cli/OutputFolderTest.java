/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OutputFolderTest {

    @Test
    void aNewOrEmptyFolderTakesResults(@TempDir Path tmp) throws IOException {
        assertNull(OutputFolder.refusal("--out", tmp.resolve("new")));
        assertNull(OutputFolder.refusal("--out", tmp));
    }

    @Test
    void aFileOrAFolderWithSomethingInItIsRefusedNamingTheOptionAndTheFix(@TempDir Path tmp) throws IOException {
        Path file = Files.writeString(tmp.resolve("results.jtl"), "x");
        assertEquals("-o " + file + " is a file: give a new or empty folder", OutputFolder.refusal("-o", file));
        assertEquals("--out " + tmp + " is not empty: give a new or empty folder, so earlier results are not mixed in",
                OutputFolder.refusal("--out", tmp));
    }
}
