/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/** The options several commands share are declared once (picocli mixins), so every command reads them alike. */
class SharedOptionsTest {

    private static final List<List<String>> JMETER_HOME = List.of(List.of("run"), List.of("gui"), List.of("server"),
            List.of("plugins", "add"), List.of("plugins", "list"));
    private static final List<List<String>> PROPERTIES = List.of(List.of("run"), List.of("gui"), List.of("doctor"),
            List.of("compare"));
    private static final List<List<String>> VM = List.of(List.of("cluster", "lab"), List.of("cluster", "validate"));
    private static final List<List<String>> METRICS = List.of(List.of("run"), List.of("server"));

    @Test
    void eachSharedOptionHasOneDeclaration() {
        assertOneDeclaration("--jmeter-home", JMETER_HOME);
        assertOneDeclaration("-J", PROPERTIES);
        assertOneDeclaration("--vm", VM);
        assertOneDeclaration("--vm-cache", VM);
        assertOneDeclaration("--metrics", METRICS);
        assertOneDeclaration("--metrics-bind", METRICS);
    }

    /** `stampede server` gained --jmeter-home: a folder without JMeter is refused by name, before anything starts. */
    @Test
    void serverRefusesAJMeterHomeWithoutJMeter(@TempDir Path dir) throws Exception {
        Files.createDirectories(dir.resolve("bin"));
        StringWriter err = new StringWriter();
        CommandLine cli = StampedeCommand.commandLine();
        cli.setOut(new PrintWriter(new StringWriter(), true));
        cli.setErr(new PrintWriter(err, true));
        int exit = cli.execute("server", "--port", "21301", "--jmeter-home", dir.toString());
        assertEquals(ExitCodes.BAD_INPUT, exit, err.toString());
        assertTrue(err.toString().contains("--jmeter-home " + dir + ": no bin/ApacheJMeter.jar there"),
                err.toString());
    }

    private static void assertOneDeclaration(String name, List<List<String>> commands) {
        Set<Object> declarations = new HashSet<>();
        for (List<String> path : commands) {
            CommandSpec spec = StampedeCommand.commandLine().getCommandSpec();
            for (String sub : path) {
                spec = spec.subcommands().get(sub).getCommandSpec();
            }
            OptionSpec option = spec.findOption(name);
            assertNotNull(option, String.join(" ", path) + " has no " + name);
            // a mixin's option is declared by a field of the mixin class, whatever command it is mixed into
            declarations.add(((java.lang.reflect.Field) option.userObject()).getDeclaringClass());
        }
        assertEquals(1, declarations.size(), name + " is declared in " + declarations);
    }
}
