/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.plugins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A plan's classes, editors and functions (its includes' too) checked against a JMeter home's jars. */
class PreflightTest {

    @TempDir
    Path dir;

    private static final String HEAD = """
            <?xml version="1.0" encoding="UTF-8"?>
            <jmeterTestPlan version="1.2" properties="5.0" jmeter="5.6.3">
              <hashTree>
                <TestPlan guiclass="TestPlanGui" testclass="TestPlan" testname="plan" enabled="true"/>
                <hashTree>
            """;
    private static final String TAIL = """
                </hashTree>
              </hashTree>
            </jmeterTestPlan>
            """;

    @Test
    void namesEachMissingClassWithItsFileLineElementAndProvider() throws Exception {
        Path home = dir.resolve("home");
        FakeHome.jar(home, "lib/ext/ApacheJMeter_core.jar", "org/apache/jmeter/testelement/TestPlan.class",
                "org/apache/jmeter/control/gui/TestPlanGui.class", "org/apache/jmeter/control/IncludeController.class",
                "org/apache/jmeter/control/gui/IncludeControllerGui.class", "org/apache/jmeter/functions/Property2.class");
        Files.createDirectories(home.resolve("bin"));
        Files.writeString(home.resolve("bin/saveservice.properties"), """
                TestPlan=org.apache.jmeter.testelement.TestPlan
                TestPlanGui=org.apache.jmeter.control.gui.TestPlanGui
                IncludeController,OldIncludeAlias=org.apache.jmeter.control.IncludeController
                IncludeControllerGui=org.apache.jmeter.control.gui.IncludeControllerGui
                hashTree=org.apache.jorphan.collections.ListedHashTree
                """);
        Path plan = dir.resolve("main.jmx");
        Files.writeString(plan, HEAD + """
                      <com.example.NoSuchThreadGroup guiclass="TestPlanGui" testname="Users" enabled="false"/>
                      <hashTree>
                        <IncludeController guiclass="IncludeControllerGui" testclass="OldIncludeAlias" testname="inc">
                          <stringProp name="IncludeController.includepath">parts/fragment.jmx</stringProp>
                        </IncludeController>
                        <hashTree/>
                      </hashTree>
                """ + TAIL);
        Files.createDirectories(dir.resolve("parts"));
        Files.writeString(dir.resolve("parts/fragment.jmx"), HEAD + """
                      <%1$s guiclass="%1$sGui" testclass="%1$s" testname="Shaping"/>
                      <hashTree/>
                      <TestPlan guiclass="TestPlanGui" testclass="TestPlan" testname="t">
                        <stringProp name="x">${__strLen(${__P(a,b)})}</stringProp>
                      </TestPlan>
                      <hashTree/>
                """.formatted("kg.apc.jmeter.timers.VariableThroughputTimer") + TAIL);
        PluginIndex index = FakeHome.index(
                "plugin jpgc-tst kg.apc:jmeter-plugins-tst:2.5 ",
                "plugin jpgc-functions kg.apc:jmeter-plugins-functions:2.1 ",
                "class kg.apc.jmeter.timers.VariableThroughputTimer kg.apc:jmeter-plugins-tst:2.5",
                "class kg.apc.jmeter.timers.VariableThroughputTimerGui kg.apc:jmeter-plugins-tst:2.5",
                "function __strLen kg.apc.jmeter.functions.StrLen kg.apc:jmeter-plugins-functions:2.1",
                "function __P org.apache.jmeter.functions.Property2 org.apache.jmeter:ApacheJMeter_functions:5.6.3");
        PluginCache cache = new PluginCache(dir.resolve("home-plugins"), index, URI.create("http://127.0.0.1:9/"));
        Preflight preflight = Preflight.of(index, cache, home, List.of());

        PluginException e = assertThrows(PluginException.class, () -> preflight.check(plan, Preflight.Mode.OFF, true));
        String m = e.getMessage();
        assertTrue(m.startsWith("main.jmx uses classes the JMeter at " + home + " does not have (nothing was started):"),
                m);
        assertTrue(m.contains("  main.jmx:6  \"Users\"  com.example.NoSuchThreadGroup\n"
                + "      no artifact in Stampede's catalogue provides it"), m);
        assertTrue(m.contains("  parts/fragment.jmx:6  \"Shaping\"  kg.apc.jmeter.timers.VariableThroughputTimer\n"
                + "      provided by kg.apc:jmeter-plugins-tst:2.5 (plugin jpgc-tst)"), m);
        assertTrue(m.contains("kg.apc.jmeter.timers.VariableThroughputTimerGui (its editor)"), m);
        assertTrue(m.contains("  parts/fragment.jmx:9  \"t\"  __strLen() in kg.apc.jmeter.functions.StrLen"), m);
        assertTrue(m.contains("  add them: stampede plugins add jpgc-tst jpgc-functions   (or run with --plugins auto)"),
                m);
        assertTrue(m.contains("put the jar that has it in " + home.resolve("lib/ext")), m);
        assertTrue(!m.contains("Property2"), "__P is JMeter's own function, not missing: " + m);

        // once the jar is on the class path (search_paths), the same plan passes but for the unknown class
        Path tst = FakeHome.jar(dir, "extra/tst.jar", "kg/apc/jmeter/timers/VariableThroughputTimer.class",
                "kg/apc/jmeter/timers/VariableThroughputTimerGui.class", "kg/apc/jmeter/functions/StrLen.class");
        String rest = assertThrows(PluginException.class, () -> Preflight.of(index, cache, home, List.of(tst))
                .check(plan, Preflight.Mode.OFF, true)).getMessage();
        assertEquals(2, rest.split("\n").length - 2, rest);
        assertTrue(rest.contains("NoSuchThreadGroup") && !rest.contains("Shaping"), rest);
    }
}
