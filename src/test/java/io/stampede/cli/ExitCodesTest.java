/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Every command declares the same exit codes through picocli, prints through its writers, and README agrees. */
class ExitCodesTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cli = StampedeCommand.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    private static List<List<String>> commands(CommandLine cli, List<String> path) {
        List<List<String>> all = new ArrayList<>();
        all.add(path);
        cli.getSubcommands().forEach((name, sub) -> {
            if (!name.equals("help")) {
                List<String> deeper = new ArrayList<>(path);
                deeper.add(name);
                all.addAll(commands(sub, deeper));
            }
        });
        return all;
    }

    @Test
    void everyCommandsHelpListsTheOneSetOfExitCodes() {
        List<List<String>> commands = commands(StampedeCommand.commandLine(), List.of());
        assertTrue(commands.size() >= 9, commands.toString());
        for (List<String> command : commands) {
            out.getBuffer().setLength(0);
            List<String> args = new ArrayList<>(command);
            args.add("--help");
            // picocli formats descriptions: a lone '%' makes it warn on the JVM's stderr and print the raw text.
            java.io.PrintStream stderr = System.err;
            java.io.ByteArrayOutputStream warnings = new java.io.ByteArrayOutputStream();
            System.setErr(new java.io.PrintStream(warnings, true, java.nio.charset.StandardCharsets.UTF_8));
            try {
                assertEquals(ExitCodes.OK, run(args.toArray(String[]::new)), command + ": " + err);
            } finally {
                System.setErr(stderr);
            }
            assertEquals("", warnings.toString(java.nio.charset.StandardCharsets.UTF_8), command + " --help");
            String help = out.toString();
            assertTrue(help.contains("Exit status:"), command + " help:\n" + help);
            // picocli wraps long meanings onto the next line: compare with the white space folded
            String folded = help.substring(help.indexOf("Exit status:")).replaceAll("\\s+", " ");
            ExitCodes.helpList().forEach((code, meaning) -> assertTrue(
                    folded.contains(" " + code.trim() + " " + meaning),
                    command + " does not list exit code " + code + ":\n" + help));
        }
    }

    @Test
    void readmeListsTheSameCodes() throws IOException {
        Path readme = Path.of(System.getProperty("user.dir")).resolve("../README.md").normalize();
        String text = Files.readString(readme);
        int section = text.indexOf("## Exit status");
        assertTrue(section >= 0, "README.md has an '## Exit status' section");
        String body = text.substring(section, text.indexOf("\n## ", section + 3));
        Map<String, String> listed = new LinkedHashMap<>();
        Matcher row = Pattern.compile("(?m)^\\| (\\d+) +\\| (.+?) *\\|$").matcher(body);
        while (row.find()) {
            listed.put(row.group(1), row.group(2));
        }
        Map<String, String> declared = new LinkedHashMap<>();
        ExitCodes.helpList().forEach((code, meaning) -> declared.put(code.trim(), meaning));
        assertEquals(declared, listed);
    }

    @Test
    void badInputIsExitTwoOnEveryCommandAndPrintedThroughPicocli(@TempDir Path dir) {
        assertEquals(ExitCodes.BAD_INPUT, run("run", dir.resolve("missing.jmx").toString()));
        assertTrue(err.toString().contains("stampede run: PLAN " + dir.resolve("missing.jmx") + " does not exist"),
                err.toString());
        assertEquals(ExitCodes.BAD_INPUT, run("run", "--no-such-option", "x.jmx"));
        assertEquals(ExitCodes.BAD_INPUT, run("target", "--port", "70000"));
        assertTrue(err.toString().contains("stampede target:"), err.toString());
        assertEquals(ExitCodes.BAD_INPUT, run("server", "--heap", "lots"));
        assertTrue(err.toString().contains("--heap lots"), err.toString());
        assertEquals(ExitCodes.BAD_INPUT, run("doctor", "--rate", "fast"));
        assertEquals(ExitCodes.BAD_INPUT, run("cluster", "validate", dir.resolve("nope").toString()));
        assertEquals("", out.toString(), "bad input writes nothing to stdout");
    }

    @Test
    void theBareCommandPrintsItsUsageThroughPicocli() {
        assertEquals(ExitCodes.OK, run());
        assertTrue(out.toString().contains("Usage: stampede"), out.toString());
        out.getBuffer().setLength(0);
        assertEquals(ExitCodes.OK, run("cluster"));
        assertTrue(out.toString().contains("Usage: stampede cluster"), out.toString());
    }
}
