/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.jmeter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Java homes are faked as folders with an executable bin/java and a release file, as real JDKs have. */
class JavaSelectionTest {
    @TempDir
    Path jvms;

    private Path home(String name, String version) throws IOException {
        Path h = jvms.resolve(name);
        Files.createDirectories(h.resolve("bin"));
        Path java = Files.writeString(h.resolve("bin/java"), "#!/bin/sh\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.writeString(h.resolve("release"), "IMPLEMENTOR=\"x\"\nJAVA_VERSION=\"" + version + "\"\n");
        return h;
    }

    private JavaSelection selection(Path option, String javaHome, JavaRuntime current) {
        return new JavaSelection(option, javaHome, current, List.of(jvms));
    }

    @Test
    void aPlanWithVirtualUsersOnJava17FindsTheNewestInstalled21Plus() throws IOException {
        JavaRuntime j17 = JavaRuntime.at(home("java-17", "17.0.15")).orElseThrow();
        home("jdk-21", "21.0.4");
        Path j25 = home("temurin-25", "25.0.3");
        JavaSelection.Choice c = selection(null, null, j17).choose(true);
        assertEquals(j25, c.runtime().home());
        assertEquals(25, c.runtime().feature());
        assertTrue(c.note().contains("is Java 17: running JMeter on Java 25"), c.note());
    }

    @Test
    void aPlanWithoutVirtualUsersKeepsTheCurrentJava() throws IOException {
        JavaRuntime j17 = JavaRuntime.at(home("java-17", "17.0.15")).orElseThrow();
        home("temurin-25", "25.0.3");
        JavaSelection.Choice c = selection(null, null, j17).choose(false);
        assertEquals(j17, c.runtime());
        assertNull(c.note());
    }

    @Test
    void javaHomeIsUsedWhenItIsNewEnough() throws IOException {
        JavaRuntime j17 = JavaRuntime.at(home("java-17", "17.0.15")).orElseThrow();
        Path j21 = home("jdk-21", "21.0.4");
        home("temurin-25", "25.0.3");
        assertEquals(j21, selection(null, j21.toString(), j17).choose(true).runtime().home());
    }

    @Test
    void javaOptionAcceptsAHomeOrItsBinJavaAndIsNeverOverridden() throws IOException {
        JavaRuntime j17 = JavaRuntime.at(home("java-17", "17.0.15")).orElseThrow();
        Path j25 = home("temurin-25", "25.0.3");
        assertEquals(j25, selection(j25.resolve("bin/java"), null, j17).choose(true).runtime().home());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> selection(j17.home(), null, j17).choose(true));
        assertTrue(e.getMessage().startsWith("--java " + j17.home() + " is Java 17, but the plan's Stampede Virtual "
                + "User Thread Group needs Java 21 or newer"), e.getMessage());
        assertEquals(j17, selection(j17.home(), null, j17).choose(false).runtime());
    }

    @Test
    void noJava21AnywhereNamesWhatToInstall() throws IOException {
        JavaRuntime j17 = JavaRuntime.at(home("java-17", "17.0.15")).orElseThrow();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> selection(null, null, j17).choose(true));
        assertTrue(e.getMessage().contains("needs Java 21 or newer; found only Java 17"), e.getMessage());
        assertTrue(e.getMessage().contains("install a JDK 21+"), e.getMessage());
        assertTrue(e.getMessage().contains("--java PATH"), e.getMessage());
    }

    @Test
    void aPathThatIsNoJavaIsRefusedNamingTheOption() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> selection(jvms.resolve("nothing"), null, JavaRuntime.current()).choose(false));
        assertTrue(e.getMessage().startsWith("--java "), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> selection(null, jvms.resolve("nothing").toString(), JavaRuntime.current()).choose(false));
        assertTrue(e.getMessage().startsWith("JAVA_HOME="), e.getMessage());
    }
}
