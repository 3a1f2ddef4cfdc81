/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.jmeter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class JMeterInstallationTest {

    /** A checkout runs the home the build assembled; an unpacked release archive its own jmeter/ folder. */
    @ParameterizedTest
    @CsvSource({"src/target/jmeter-home, stampede-plugins.jar", "jmeter, stampede-plugins-1.2.3.jar"})
    void theBundledHomeIsTheCheckoutsOrTheArchives(String folder, String plugin, @TempDir Path root) throws Exception {
        Path home = root.resolve(folder);
        Files.createDirectories(home.resolve("bin"));
        Files.writeString(home.resolve(JMeterInstallation.LAUNCHER), "jar");
        Files.createDirectories(home.resolve("lib/ext"));
        Files.writeString(home.resolve("lib/ext").resolve(plugin), "jar");
        Files.writeString(home.resolve("lib/ext/ApacheJMeter_core.jar"), "jar");
        assertEquals(home, JMeterInstallation.bundled(root).home());
        assertEquals(List.of(home.resolve("lib/ext").resolve(plugin)), JMeterInstallation.pluginJars(root));
    }

    @Test
    void aMissingHomeSaysHowToBuildIt(@TempDir Path root) {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> JMeterInstallation.bundled(root));
        assertTrue(e.getMessage().contains("src/target/jmeter-home") && e.getMessage().contains("mvn"), e.getMessage());
    }
}
