/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.plugins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The index the build wrote from the catalogue's jars: classes and functions map to the artifacts that hold them. */
class PluginIndexTest {

    private final PluginIndex index = PluginIndex.bundled();

    @Test
    void classesMapToTheJarsThatHoldThem() {
        assertEquals("kg.apc:jmeter-plugins-tst:2.5",
                index.jarOf("kg.apc.jmeter.timers.VariableThroughputTimer").orElseThrow().toString());
        assertEquals("kg.apc:jmeter-plugins-dummy:0.4",
                index.jarOf("kg.apc.jmeter.samplers.DummySamplerGui").orElseThrow().toString());
        assertEquals("org.apache.jmeter:ApacheJMeter_jdbc:5.6.3",
                index.jarOf("org.apache.jmeter.protocol.jdbc.sampler.JDBCSampler").orElseThrow().toString());
        // a class of a shared library leads to a plugin that brings it
        PluginIndex.Plugin via = index.pluginWith(index.jarOf("kg.apc.jmeter.JMeterPluginsUtils").orElseThrow())
                .orElseThrow();
        assertTrue(via.jars().contains(Coordinates.parse("kg.apc:jmeter-plugins-cmn-jmeter:0.6")), via.toString());
        assertTrue(index.jarOf("com.example.NoSuchThreadGroup").isEmpty());
    }

    @Test
    void functionsMapToTheirClassAndArtifactJMetersOwnToo() {
        PluginIndex.Function strLen = index.function("__strLen").orElseThrow();
        assertEquals("kg.apc.jmeter.functions.StrLen", strLen.className());
        assertEquals("kg.apc:jmeter-plugins-functions:2.1", strLen.coordinates().toString());
        assertEquals("org.apache.jmeter:ApacheJMeter_functions:5.6.3",
                index.function("__P").orElseThrow().coordinates().toString());
        assertTrue(index.function("__noSuchFunction").isEmpty());
    }

    @Test
    void pluginsByIdArtifactOrCoordinatesWithTheirPinnedLibraries() {
        PluginIndex.Plugin tst = index.plugin("jpgc-tst").orElseThrow();
        assertEquals(tst, index.plugin("jmeter-plugins-tst").orElseThrow());
        assertEquals(tst, index.plugin("kg.apc:jmeter-plugins-tst").orElseThrow());
        assertEquals(tst, index.plugin("kg.apc:jmeter-plugins-tst:2.5").orElseThrow());
        // the catalogue pins the newest cmn-jmeter its plugins ask for: tst asked for 0.3
        assertTrue(tst.libraries().contains(Coordinates.parse("kg.apc:jmeter-plugins-cmn-jmeter:0.6")), tst.toString());
        assertTrue(tst.libraries().stream().noneMatch(c -> c.group().equals("org.apache.jmeter")),
                "JMeter itself is never a plugin's library: " + tst);
        for (PluginIndex.Plugin p : index.plugins()) {
            for (Coordinates c : p.jars()) {
                PluginIndex.Jar jar = index.jar(c).orElseThrow(() -> new AssertionError(c + " not indexed"));
                assertTrue(jar.sha256().matches("[0-9a-f]{64}") && jar.size() > 0, jar.toString());
            }
        }
        assertTrue(index.plugin("jpgc-nonesuch").isEmpty());
    }

    @Test
    void theCatalogueTreeGivesEachPluginItsLibrariesAndRefusesDowngrades() {
        CatalogueTree tree = CatalogueTree.parse(List.of(
                "io.stampede:stampede-plugin-catalogue:pom:0.1.0-SNAPSHOT",
                "+- kg.apc:jmeter-plugins-tst:jar:2.5:compile",
                "|  \\- kg.apc:jmeter-plugins-cmn-jmeter:jar:0.6:compile (version managed from 0.3)",
                "|     \\- kg.apc:jmeter-plugins-charts:jar:0.1:compile",
                "+- kg.apc:jmeter-plugins-dummy:jar:0.4:compile",
                "|  \\- (kg.apc:jmeter-plugins-cmn-jmeter:jar:0.6:compile - version managed from 0.6; omitted for"
                        + " duplicate)",
                "\\- net.luminis.jmeter:jmeter-websocket-samplers:jar:1.3.1:compile",
                "   \\- (commons-io:commons-io:jar:2.15.1:runtime - omitted for conflict with 2.5)"));
        assertEquals(3, tree.plugins().size());
        CatalogueTree.Node dummy = tree.plugins().get(1);
        assertEquals(List.of(Coordinates.parse("kg.apc:jmeter-plugins-cmn-jmeter:0.6"),
                Coordinates.parse("kg.apc:jmeter-plugins-charts:0.1")), tree.closure(dummy),
                "an omitted duplicate brings the libraries it has where it is expanded");
        assertEquals(List.of("net.luminis.jmeter:jmeter-websocket-samplers:1.3.1 asks for commons-io:commons-io:2.15.1"
                + " but the catalogue resolves 2.5"), tree.downgrades());
    }
}
