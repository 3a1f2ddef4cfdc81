/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.plugins;

import io.stampede.cli.StampedeRoot;
import io.stampede.jmeter.JMeterInstallation;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The {@code --plugins} option of the commands that start JMeter, and the preflight they run with it before
 * anything starts. AUTO is the default: docs/plugins.md says why.
 */
public final class PluginsOption {

    @Option(names = "--plugins", paramLabel = "auto|off",
            description = "Plugins the plan needs that this JMeter lacks: auto fetches those of Stampede's catalogue "
                    + "from Maven Central (pinned versions, SHA-256 checked) into a cache beside the JMeter home; off "
                    + "only names them and the command that adds them. Either way a class no plugin provides stops "
                    + "the command before anything starts. Default: ${DEFAULT-VALUE}.")
    String mode = "auto";

    /**
     * The installation with the plugin jars the plan needs on its search path.
     *
     * @param plan null for none (a new plan in the GUI: only the plugins added before)
     * @throws PluginException naming each missing class with its line and the fix (exit 2)
     */
    public JMeterInstallation prepare(JMeterInstallation jmeter, Path plan, PrintWriter console, String command)
            throws IOException {
        Preflight.Mode m = Preflight.Mode.parse("--plugins", mode);
        Preflight.Outcome o = Preflight.of(jmeter.home(), jmeter.searchPaths()).check(plan, m, true);
        o.lines().forEach(l -> console.println(command + ": " + l));
        JMeterInstallation out = jmeter;
        for (Path jar : o.searchPaths()) {
            out = out.withSearchPath(jar);
        }
        return out;
    }

    /**
     * The same check without changing anything, against the bundled JMeter (doctor --plan, convert): plugins that
     * {@code stampede run} would fetch are named, classes nothing provides refused.
     */
    public static void check(Path plan, PrintWriter console, String command) throws IOException {
        Path home = JMeterInstallation.bundledHome(StampedeRoot.locate());
        if (!Files.isDirectory(home.resolve("lib/ext"))) {
            return; // only inside the build's own tests: ./stampede builds the JMeter home before any command
        }
        Preflight.of(home, java.util.List.of()).check(plan, Preflight.Mode.AUTO, false).lines()
                .forEach(l -> console.println(command + ": " + l));
    }
}
