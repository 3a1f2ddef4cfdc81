/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.distributed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.jmeter.JMeterCommandLine;
import io.stampede.jmeter.JMeterInstallation;
import io.stampede.jmeter.JavaRuntime;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The controller and engine command lines JMeter's distributed mode needs. */
class RemoteCommandLineTest {

    private static final JMeterInstallation HOME = new JMeterInstallation(Path.of("/opt/jmeter"), List.of());

    @Test
    void controllerSendsPlanPropertiesToEnginesAndBatchesResults() {
        Map<String, String> user = new LinkedHashMap<>();
        user.put("host", "127.0.0.1");
        user.put("threads", "8");
        List<String> cmd = JMeterCommandLine.runRemote(HOME, JavaRuntime.current(), List.of("-Xmx1g"), Path.of("p.jmx"), Path.of("r.jtl"),
                Path.of("j.log"), user, "127.0.0.1:41099,127.0.0.1:41199", true);
        int r = cmd.indexOf("-R");
        assertEquals("127.0.0.1:41099,127.0.0.1:41199", cmd.get(r + 1));
        assertTrue(cmd.contains("-X"));
        // __P in the plan is evaluated on the engines, so they get the properties with -G
        assertTrue(cmd.contains("-Ghost=127.0.0.1"));
        assertTrue(cmd.contains("-Gthreads=8"));
        // the sample sender is built on the controller, so mode and thresholds are -J
        assertTrue(cmd.contains("-Jmode=io.stampede.remote.CompactSampleSender"));
        assertTrue(cmd.contains("-Jnum_sample_threshold=1000"));
        assertTrue(cmd.contains("-Jserver.rmi.ssl.disable=true"));
        assertTrue(cmd.contains("-Jjmeter.save.saveservice.thread_counts=true"));
        assertFalse(cmd.stream().anyMatch(a -> a.startsWith("-Gmode")));
    }

    @Test
    void aKeystoreKeepsSslOnAndWithoutExitTheEnginesStay() {
        List<String> cmd = JMeterCommandLine.runRemote(HOME, JavaRuntime.current(), List.of(), Path.of("p.jmx"), Path.of("r.jtl"),
                Path.of("j.log"), Map.of("server.rmi.ssl.keystore.file", "/etc/rmi.jks"), "e1", false);
        assertFalse(cmd.contains("-Jserver.rmi.ssl.disable=true"));
        assertTrue(cmd.contains("-Jserver.rmi.ssl.keystore.file=/etc/rmi.jks"));
        assertFalse(cmd.stream().anyMatch(a -> a.startsWith("-Gserver.rmi.")), "RMI settings stay on the controller");
        assertFalse(cmd.contains("-X"));
    }

    @Test
    void engineCommandLine() {
        ServerSettings s = new ServerSettings(41099, 41100, "127.0.0.1", null, "changeit");
        JavaRuntime java25 = new JavaRuntime(Path.of("/usr/lib/jvm/jdk-25"), 25);
        List<String> cmd = JMeterCommandLine.server(HOME, java25, List.of("-Djava.rmi.server.hostname=127.0.0.1"),
                Path.of("s.log"), s.jmeterProperties(), Path.of("/tmp/private/rmi-ssl.properties"));
        assertEquals("/usr/lib/jvm/jdk-25/bin/java", cmd.get(0), "the engine runs on the Java it was given");
        assertTrue(cmd.indexOf("-Djava.rmi.server.hostname=127.0.0.1") < cmd.indexOf("-jar"));
        assertEquals("/opt/jmeter/bin/ApacheJMeter.jar", cmd.get(cmd.indexOf("-jar") + 1));
        assertTrue(cmd.containsAll(List.of("-s", "-Jserver_port=41099", "-Jserver.rmi.localport=41100",
                "-Jserver.rmi.ssl.disable=true")));
        assertEquals("/tmp/private/rmi-ssl.properties", cmd.get(cmd.indexOf("-q") + 1));
    }
}
