/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.vm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;

class GuestRunFolderTest {

    /** A boot's folder can hold haproxy.cfg: no other user of the machine may list or read it. */
    @Test
    void aBootsFolderIsTheOwnersAlone() throws IOException {
        Path folder = GuestRun.newFolder();
        try {
            assertTrue(folder.getFileName().toString().startsWith("stl-vm-"), folder.toString());
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(folder)));
        } finally {
            Files.delete(folder);
        }
    }
}
