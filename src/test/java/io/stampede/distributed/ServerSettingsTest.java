/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.distributed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.jmeter.JMeterInstallation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServerSettingsTest {

    @Test
    void plainRmiByDefault() {
        ServerSettings s = new ServerSettings(41099, 41100, "127.0.0.1", null, "changeit");
        assertEquals(Map.of("server_port", "41099", "server.rmi.localport", "41100", "server.rmi.ssl.disable", "true"),
                s.jmeterProperties());
    }

    @Test
    void theEngineListensOnTheAddressItAdvertises(@TempDir Path root) throws Exception {
        Path agent = JMeterInstallation.bundledHome(root).resolve(RmiBind.JAR);
        Files.createDirectories(agent.getParent());
        Files.writeString(agent, "jar");
        ServerSettings s = new ServerSettings(41099, 41100, "127.0.0.1", null, "changeit");
        assertEquals(List.of("-Djava.rmi.server.hostname=127.0.0.1", "-Dsun.rmi.transport.tcp.responseTimeout=30000",
                "-javaagent:" + agent + "=127.0.0.1"), s.jvmOptions(root));
    }

    @Test
    void withoutTheAgentTheEngineDoesNotStart(@TempDir Path root) {
        ServerSettings s = new ServerSettings(41099, 41100, "127.0.0.1", null, "changeit");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> s.jvmOptions(root));
        assertTrue(e.getMessage().contains("mvn -B -DskipTests package"), e.getMessage());
    }

    @Test
    void keystoreTurnsSslOn(@TempDir Path dir) throws Exception {
        Path ks = Files.writeString(dir.resolve("rmi_keystore.jks"), "x");
        Map<String, String> p = new ServerSettings(1099, 0, "127.0.0.1", ks, "secret").jmeterProperties();
        assertEquals("false", p.get("server.rmi.ssl.disable"));
        assertEquals(ks.toAbsolutePath().toString(), p.get("server.rmi.ssl.keystore.file"));
        assertFalse(p.containsKey("server.rmi.ssl.truststore.password"), "passwords stay off the command line");
        assertEquals(Map.of("server.rmi.ssl.keystore.password", "secret", "server.rmi.ssl.truststore.password", "secret"),
                new ServerSettings(1099, 0, "127.0.0.1", ks, "secret").secretProperties());
    }

    @Test
    void badInputNamesTheOption(@TempDir Path dir) {
        assertOption("--port 0", () -> new ServerSettings(0, 0, "127.0.0.1", null, "x"));
        assertOption("--port 70000", () -> new ServerSettings(70000, 0, "127.0.0.1", null, "x"));
        assertOption("--rmi-port -1", () -> new ServerSettings(1099, -1, "127.0.0.1", null, "x"));
        assertOption("--bind is empty", () -> new ServerSettings(1099, 0, " ", null, "x"));
        assertOption("--bind no-such-host.invalid", () -> new ServerSettings(1099, 0, "no-such-host.invalid", null, "x"));
        assertOption("--ssl-keystore", () -> new ServerSettings(1099, 0, "127.0.0.1", dir.resolve("none.jks"), "x"));
    }

    private static void assertOption(String start, Runnable r) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, r::run);
        assertTrue(e.getMessage().startsWith(start), e.getMessage());
    }
}
