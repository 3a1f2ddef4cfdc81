/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.cli.StampedeCommand;
import io.stampede.jmeter.JMeterCommandLine;
import io.stampede.jmeter.JMeterInstallation;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class GuiCommandTest {

    @Test
    void guiCommandLineOpensThePlanWithoutNonGuiFlagsAndPassesOurJarsAndProperties() {
        JMeterInstallation users = new JMeterInstallation(Path.of("/opt/jmeter"),
                List.of(Path.of("/s/stampede-plugins.jar"), Path.of("/s/jmeter-plugins-casutg.jar")));
        Map<String, String> props = new LinkedHashMap<>();
        props.put("host", "10.0.0.5");
        props.put("threads", "50");
        List<String> cmd = JMeterCommandLine.gui(users, List.of("-Xmx1g"), Path.of("/p/plan.jmx"), props);
        assertEquals(List.of("-Xmx1g", "-jar", "/opt/jmeter/bin/ApacheJMeter.jar", "-t", "/p/plan.jmx",
                "-Jsearch_paths=/s/stampede-plugins.jar;/s/jmeter-plugins-casutg.jar", "-Jhost=10.0.0.5",
                "-Jthreads=50"), cmd.subList(1, cmd.size()));
        assertFalse(cmd.contains("-n"), "no -n: JMeter opens its GUI");

        List<String> empty = JMeterCommandLine.gui(new JMeterInstallation(Path.of("/j"), List.of()), List.of(), null,
                Map.of());
        assertEquals(List.of("-jar", "/j/bin/ApacheJMeter.jar"), empty.subList(1, empty.size()),
                "no plan: a new one; the bundled home already has our jars in lib/ext");
    }

    @Test
    void noDisplayOnLinuxIsRefusedWithTheHint() {
        assertTrue(Display.missing(Map.of(), "Linux").orElseThrow().startsWith(Display.HINT));
        assertTrue(Display.missing(Map.of("DISPLAY", " "), "Linux").isPresent(), "a blank DISPLAY is no display");
        assertTrue(Display.missing(Map.of("DISPLAY", ":0"), "Linux").isEmpty());
        assertTrue(Display.missing(Map.of("WAYLAND_DISPLAY", "wayland-0"), "Linux").isEmpty());
        assertTrue(Display.missing(Map.of(), "Windows 11").isEmpty());
        assertTrue(Display.missing(Map.of(), "Mac OS X").isEmpty());
    }

    @Test
    void missingOrInvalidPlanAndBadInputExitTwoWithTheUsualMessage(@TempDir Path dir) throws Exception {
        Result missing = gui(dir.resolve("nope.jmx").toString());
        assertEquals(2, missing.exit);
        assertTrue(missing.stderr.contains("stampede gui: PLAN " + dir.resolve("nope.jmx") + " does not exist"),
                missing.stderr);

        Path notAPlan = Files.writeString(dir.resolve("pom.jmx"), "<project/>");
        Result invalid = gui(notAPlan.toString());
        assertEquals(2, invalid.exit);
        assertTrue(invalid.stderr.contains("not a JMeter plan: its root element is <project>"), invalid.stderr);

        Result badProperty = gui("-J", "threads=many");
        assertEquals(2, badProperty.exit);
        assertTrue(badProperty.stderr.contains("-J threads=many is not valid"), badProperty.stderr);

        Result badHome = gui("--jmeter-home", dir.toString());
        assertEquals(2, badHome.exit);
        assertTrue(badHome.stderr.contains("--jmeter-home " + dir + ": no bin/ApacheJMeter.jar there"),
                badHome.stderr);
    }

    private static Result gui(String... args) {
        StringWriter err = new StringWriter();
        CommandLine cli = StampedeCommand.commandLine();
        cli.setOut(new PrintWriter(new StringWriter(), true));
        cli.setErr(new PrintWriter(err, true));
        List<String> all = new ArrayList<>(List.of("gui"));
        all.addAll(List.of(args));
        return new Result(cli.execute(all.toArray(String[]::new)), err.toString());
    }

    private record Result(int exit, String stderr) {}
}
