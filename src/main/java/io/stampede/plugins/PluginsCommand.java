/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.plugins;

import io.stampede.cli.ExitCodes;
import io.stampede.cli.StampedeRoot;
import io.stampede.jmeter.JMeterHomeOption;
import io.stampede.jmeter.JMeterInstallation;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** `stampede plugins add|list`: the JMeter plugins of Stampede's catalogue, by name. */
@Command(
        name = "plugins",
        mixinStandardHelpOptions = true,
        description = {
            "The JMeter plugins Stampede can fetch from Maven Central (the jmeter-plugins of the Plugins Manager's"
                    + " catalogue that are published there, and JMeter's own modules the bundled JMeter leaves out)."
                    + " Added plugins go to a cache beside the JMeter home (its lib/ext is not changed) and reach"
                    + " every later run, GUI and engine of that home by search_paths.",
            ""
        },
        subcommands = {PluginsCommand.Add.class, PluginsCommand.ListPlugins.class})
public final class PluginsCommand implements Runnable {

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** `stampede plugins add NAME...`. */
    @Command(name = "add", mixinStandardHelpOptions = true,
            description = "Fetch plugins (with their libraries, pinned, SHA-256 checked) and add them to the JMeter"
                    + " home's plugin cache. Exit 2 for an unknown name, a library conflict with JMeter's own jars,"
                    + " or when Maven Central cannot be reached (the message lists the jars and where to put them).")
    static final class Add implements Callable<Integer> {

        @ParentCommand
        PluginsCommand parent;

        @Mixin
        JMeterHomeOption jmeterHome;

        @Parameters(arity = "1..*", paramLabel = "NAME",
                description = "A plugin id as the Plugins Manager names it (jpgc-tst), its artifactId"
                        + " (jmeter-plugins-tst) or groupId:artifactId[:version]; see `stampede plugins list`.")
        List<String> names;

        @Override
        public Integer call() throws IOException {
            PrintWriter out = parent.spec.commandLine().getOut();
            PrintWriter err = parent.spec.commandLine().getErr();
            PluginIndex index = PluginIndex.bundled();
            try {
                List<PluginIndex.Plugin> plugins = new ArrayList<>();
                for (String name : names) {
                    Optional<PluginIndex.Plugin> p = index.plugin(name);
                    if (p.isEmpty()) {
                        throw new PluginException(name + " is not in Stampede's plugin catalogue: `stampede plugins"
                                + " list` shows it; for another plugin put its jar in the JMeter home's lib/ext");
                    }
                    plugins.add(p.get());
                }
                JMeterInstallation jmeter = jmeterHome.installation(StampedeRoot.locate(), false);
                PluginCache cache = PluginCache.beside(jmeter.home(), index);
                PluginJars jars = PluginJars.choose(plugins, JMeterClasspath.of(jmeter.home(), jmeter.searchPaths()));
                if (!jars.conflicts().isEmpty()) {
                    throw new PluginException("refused: " + String.join("\n  refused: ", jars.conflicts()));
                }
                cache.provide(jars.jars());
                cache.remember(plugins);
                jars.notes().forEach(n -> out.println("stampede plugins: " + n));
                for (PluginIndex.Plugin p : plugins) {
                    out.printf("stampede plugins: added %s (%s) to %s%n", p.id(), p.coordinates(), cache.dir());
                }
                return ExitCodes.OK;
            } catch (IllegalArgumentException | IllegalStateException e) {
                err.println("stampede plugins add: " + e.getMessage());
                return ExitCodes.BAD_INPUT;
            }
        }
    }

    /** `stampede plugins list`. */
    @Command(name = "list", mixinStandardHelpOptions = true,
            description = "The catalogue: each plugin's id, artifact, and whether this JMeter has it (in JMeter: in its"
                    + " lib/ext; added: in its plugin cache).")
    static final class ListPlugins implements Callable<Integer> {

        @ParentCommand
        PluginsCommand parent;

        @Mixin
        JMeterHomeOption jmeterHome;

        @Override
        public Integer call() throws IOException {
            PrintWriter out = parent.spec.commandLine().getOut();
            PluginIndex index = PluginIndex.bundled();
            JMeterInstallation jmeter;
            try {
                jmeter = jmeterHome.installation(StampedeRoot.locate(), false);
            } catch (IllegalArgumentException | IllegalStateException e) {
                parent.spec.commandLine().getErr().println("stampede plugins list: " + e.getMessage());
                return ExitCodes.BAD_INPUT;
            }
            PluginCache cache = PluginCache.beside(jmeter.home(), index);
            JMeterClasspath classpath = JMeterClasspath.of(jmeter.home(), List.of());
            List<String> added = cache.added().stream().map(PluginIndex.Plugin::id).toList();
            out.printf("%-24s %-58s %s%n", "PLUGIN", "ARTIFACT", "HERE");
            for (PluginIndex.Plugin p : index.plugins()) {
                String here = added.contains(p.id()) ? "added"
                        : classpath.library(p.coordinates()).isPresent() ? "in JMeter" : "-";
                out.printf("%-24s %-58s %s%n", p.id(), p.coordinates(), here);
            }
            out.printf("%nplugin cache: %s%n", cache.dir());
            return ExitCodes.OK;
        }
    }
}
