/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.distributed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class PrivateFolderTest {

    @Test
    void onlyTheUserCanReadItAndCloseRemovesIt() throws Exception {
        Path dir;
        try (PrivateFolder f = PrivateFolder.create("stampede-test-")) {
            dir = f.dir();
            Path props = f.writeProperties("rmi-ssl.properties", Map.of("server.rmi.ssl.keystore.password", "a=b:c"));
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)));
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(props)));
            Properties read = new Properties();
            try (var in = Files.newBufferedReader(props)) {
                read.load(in);
            }
            assertEquals("a=b:c", read.getProperty("server.rmi.ssl.keystore.password"), "escaped as JMeter reads it");
            f.close(); // a Ctrl-C hook may close it first
        }
        assertFalse(Files.exists(dir));
    }
}
