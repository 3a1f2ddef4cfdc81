/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.distributed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.jmeter.JMeterCommandLine;
import io.stampede.jmeter.JMeterInstallation;
import io.stampede.jmeter.JavaRuntime;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PasswordFileTest {

    @TempDir
    Path dir;

    private Path file(String text, String mode) throws Exception {
        Path f = Files.writeString(dir.resolve("pw"), text);
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString(mode));
        return f;
    }

    @Test
    void readsTheFirstLineOfAnOwnerOnlyFile() throws Exception {
        assertEquals("s3cret", PasswordFile.read(file("s3cret\nignored\n", "rw-------"), "--x"));
        assertEquals("s3cret", PasswordFile.read(file("s3cret", "r--------"), "--x"));
    }

    @Test
    void refusesAFileOthersCanRead() throws Exception {
        for (String mode : List.of("rw-r--r--", "rw-r-----", "rw-----w-")) {
            Path f = file("s3cret\n", mode);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> PasswordFile.read(f, "--ssl-password-file"));
            assertTrue(e.getMessage().startsWith("--ssl-password-file " + f), e.getMessage());
            assertTrue(e.getMessage().contains("chmod 600 " + f), e.getMessage());
            assertFalse(e.getMessage().contains("s3cret"), "the message shows the password");
        }
    }

    @Test
    void refusesAMissingOrEmptyFile() throws Exception {
        assertThrows(IllegalArgumentException.class, () -> PasswordFile.read(dir.resolve("none"), "--x"));
        Path empty = file("\n", "rw-------");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PasswordFile.read(empty, "--x"))
                .getMessage().contains("is empty"));
    }

    @Test
    void theControllersKeystorePasswordGoesInAPrivatePropertyFileNotTheCommandLine() throws Exception {
        RmiKeystore keystore = new RmiKeystore(dir.resolve("rmi.jks"), "s3cret");
        try (PrivateFolder folder = PrivateFolder.create("pw-test-")) {
            Path props = folder.writeProperties("rmi-ssl.properties", keystore.secretProperties());
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(props)));
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(folder.dir())));
            Properties read = new Properties();
            try (var in = Files.newBufferedReader(props)) {
                read.load(in);
            }
            assertEquals("s3cret", read.getProperty("server.rmi.ssl.keystore.password"));
            assertEquals("s3cret", read.getProperty("server.rmi.ssl.truststore.password"));

            JMeterInstallation home = new JMeterInstallation(Path.of("/opt/jmeter"), List.of());
            List<String> cmd = JMeterCommandLine.runRemote(home, JavaRuntime.current(), List.of(), Path.of("p.jmx"),
                    Path.of("r.jtl"), Path.of("j.log"), keystore.jmeterProperties(), "e1", false, props);
            assertEquals(props.toString(), cmd.get(cmd.indexOf("-q") + 1));
            assertTrue(cmd.contains("-Jserver.rmi.ssl.keystore.file=" + dir.resolve("rmi.jks")));
            assertFalse(cmd.contains("-Jserver.rmi.ssl.disable=true"));
            assertFalse(String.join(" ", cmd).contains("s3cret"), "the password is on the command line: " + cmd);
        }
        assertEquals(Map.of(), new ServerSettings(1099, 0, "127.0.0.1", null, "x").secretProperties());
    }
}
