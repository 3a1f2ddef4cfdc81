/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.plugins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which jars a plugin adds to a JMeter, and which of its libraries JMeter's own jars refuse. */
class PluginJarsTest {

    @TempDir
    Path home;

    @Test
    void jmetersOwnLibrariesServeWhenEqualOrNewerInTheSameMajorAndRefuseOtherwise() throws Exception {
        FakeHome.jar(home, "lib/commons-logging-1.0.4.jar", "org/apache/commons/logging/Log.class");
        FakeHome.jar(home, "lib/log4j-1.2-api-2.22.1.jar", "org/apache/log4j/Logger.class");
        FakeHome.jar(home, "lib/slf4j-api-1.7.36.jar", "org/slf4j/Logger.class");
        FakeHome.jar(home, "lib/commons-lang-3.0.jar", "org/apache/commons/lang/StringUtils.class");
        // lib/ext holds jars without a version in their name: the version is read from pom.properties
        FakeHome.jar(home, "lib/ext/jmeter-plugins-cmn-jmeter.jar",
                "META-INF/maven/kg.apc/jmeter-plugins-cmn-jmeter/pom.properties=version=0.6;groupId=kg.apc");
        PluginIndex index = FakeHome.index(
                "plugin p-same g:p-same:1 kg.apc:jmeter-plugins-cmn-jmeter:0.6",
                "plugin p-newer g:p-newer:1 org.slf4j:slf4j-api:1.7.24",
                "plugin p-older g:p-older:1 commons-logging:commons-logging:1.2,log4j:log4j:1.2.15",
                "plugin p-major g:p-major:1 commons-lang:commons-lang:2.6");
        JMeterClasspath jmeter = JMeterClasspath.of(home, List.of());

        PluginJars same = PluginJars.choose(List.of(index.plugin("p-same").orElseThrow()), jmeter);
        assertEquals(List.of(Coordinates.parse("g:p-same:1")), same.jars());
        assertEquals(List.of(), same.notes());
        assertEquals(List.of(), same.conflicts());

        PluginJars newer = PluginJars.choose(List.of(index.plugin("p-newer").orElseThrow()), jmeter);
        assertEquals(List.of(Coordinates.parse("g:p-newer:1")), newer.jars());
        assertEquals(List.of("JMeter's own lib/slf4j-api-1.7.36.jar serves p-newer (built with 1.7.24)"), newer.notes());

        PluginJars older = PluginJars.choose(List.of(index.plugin("p-older").orElseThrow()), jmeter);
        assertEquals(1, older.conflicts().size(), older.toString());
        assertTrue(older.conflicts().get(0).startsWith("p-older needs commons-logging:commons-logging:1.2 but JMeter"
                + " has 1.0.4 in lib/commons-logging-1.0.4.jar: an older version"), older.conflicts().toString());
        // log4j-1.2-api-2.22.1.jar is not log4j 1.2-api: log4j 1.2.15 is simply added
        assertTrue(older.jars().contains(Coordinates.parse("log4j:log4j:1.2.15")), older.toString());

        PluginJars major = PluginJars.choose(List.of(index.plugin("p-major").orElseThrow()), jmeter);
        assertEquals(1, major.conflicts().size(), major.toString());
        assertTrue(major.conflicts().get(0).contains("has 3.0 in lib/commons-lang-3.0.jar: another major version"),
                major.conflicts().toString());
    }

    @Test
    void aJMeterModuleInLibExtWithoutItsVersionInTheNameIsKnownByItsManifest() throws Exception {
        // Stampede's JMeter home strips versions from lib/ext's names; JMeter's jars have no pom.properties
        FakeHome.jar(home, "lib/ext/ApacheJMeter_java.jar",
                "META-INF/MANIFEST.MF=Manifest-Version: 1.0;Implementation-Version: 5.6.3;",
                "org/apache/jmeter/protocol/java/sampler/JSR223Sampler.class");
        PluginIndex index = FakeHome.index(
                "plugin jmeter-java org.apache.jmeter:ApacheJMeter_java:5.6.3 commons-io:commons-io:2.15.1");
        JMeterClasspath jmeter = JMeterClasspath.of(home, List.of());

        PluginJars own = PluginJars.choose(List.of(index.plugin("jmeter-java").orElseThrow()), jmeter);
        assertEquals(List.of(), own.conflicts(), own.toString());
        assertEquals(List.of(Coordinates.parse("commons-io:commons-io:2.15.1")), own.jars(),
                "JMeter's own jar serves the module, only its library is added: " + own);
    }

    @Test
    void versionsOrderByTheirNumbers() {
        assertTrue(Versions.compare("2.15.1", "2.5") > 0);
        assertTrue(Versions.compare("1.0.b2", "1.3.03") < 0);
        assertTrue(Versions.compare("0.6", "0.6") == 0);
        assertTrue(Versions.compare("1.0", "1.0-beta") > 0);
        assertEquals("2", Versions.major("2.22.1"));
    }
}
