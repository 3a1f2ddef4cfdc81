/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.cli.StampedeCommand;
import io.stampede.jmeter.JMeterInstallation;
import io.stampede.plan.HttpRequestEngine;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class EngineSwitchTest {

    static final Path PLANS = Path.of(System.getProperty("user.dir")).resolve("../plans").normalize();

    @Test
    void eachEngineSaysWhatItSwitchesAndPicksItsJar(@TempDir Path root) throws Exception {
        Path folder = Files.createDirectories(JMeterInstallation.bundledHome(root).resolve(EngineSwitch.FOLDER));
        Files.writeString(folder.resolve("stampede-switch-to-stampede.jar"), "jar");
        Files.writeString(folder.resolve("stampede-switch-to-stock.jar"), "jar");
        PlanFile shop = PlanFile.read(PLANS.resolve("recorded-shop.jmx"));

        EngineSwitch stampede = EngineSwitch.of(HttpRequestEngine.STAMPEDE, shop, root);
        assertEquals(folder.resolve("stampede-switch-to-stampede.jar"), stampede.jar());
        assertEquals("engine stampede: 3 HTTP Requests of recorded-shop.jmx run on Netty engine (EngineHttpRequest)"
                + " (the file is not changed)", stampede.line());

        EngineSwitch stock = EngineSwitch.of(HttpRequestEngine.STOCK, shop, root);
        assertEquals(folder.resolve("stampede-switch-to-stock.jar"), stock.jar());
        assertEquals("engine stock: the 3 HTTP Requests of recorded-shop.jmx already use JMeter's HTTP Request"
                + " (HttpClient4), nothing to switch", stock.line());

        PlanFile none = PlanFile.read(PLANS.resolve("quickstart.jmx"));
        assertEquals("engine stampede: quickstart.jmx has no HTTP Request (JMeter's or Stampede's), nothing to"
                + " switch", EngineSwitch.of(HttpRequestEngine.STAMPEDE, none, root).line());

        Files.delete(folder.resolve("stampede-switch-to-stock.jar"));
        IllegalStateException missing = assertThrows(IllegalStateException.class,
                () -> EngineSwitch.of(HttpRequestEngine.STOCK, shop, root));
        assertTrue(missing.getMessage().contains("stampede-switch-to-stock.jar is missing"), missing.getMessage());
    }

    @Test
    void anUnknownEngineExitsTwoNamingTheChoicesBeforeAnythingStarts(@TempDir Path dir) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = StampedeCommand.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int exit = cli.execute("run", PLANS.resolve("recorded-shop.jmx").toString(), "--engine", "netty",
                "--out", dir.resolve("results").toString());
        assertEquals(2, exit);
        assertEquals("stampede run: --engine netty: unknown engine; choose one of stampede (the Netty engine), stock"
                + " (JMeter's own HTTP Request; also: hc4)\n", err.toString());
        assertEquals("", out.toString());
        assertFalse(Files.exists(dir.resolve("results")), "nothing written");
    }
}
