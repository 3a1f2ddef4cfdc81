/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** `stampede -V` names the versions the build used (surefire passes the poms' own figures to compare with). */
class StampedeVersionTest {

    @Test
    void namesStampedeJMeterAndNettyAsThePomsSay() {
        String stampede = property("stampede.version.expected");
        String jmeter = property("jmeter.version.expected");
        String netty = property("netty.version.expected");
        StringWriter out = new StringWriter();
        CommandLine cli = StampedeCommand.commandLine();
        cli.setOut(new PrintWriter(out));
        assertEquals(0, cli.execute("-V"));
        List<String> lines = out.toString().lines().toList();
        assertEquals("stampede " + stampede, lines.get(0));
        assertEquals("JMeter " + jmeter + ", Netty " + netty, lines.get(1));
        assertEquals("Java " + Runtime.version() + " (" + System.getProperty("java.home") + ")", lines.get(2));
    }

    private static String property(String name) {
        String v = System.getProperty(name);
        assertNotNull(v, name + " is not set: run through Maven (src/pom.xml's surefire passes it)");
        return v;
    }
}
