/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.scale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.it.support.JMeterHome;
import io.stampede.it.support.Jtl;
import io.stampede.it.support.JtlFormat;
import io.stampede.it.support.JtlRow;
import io.stampede.it.support.Plans;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * In a network namespace whose local port range is narrowed to 300 ports, nginx and JMeter both run inside: one
 * source address runs out of local ports ("Cannot assign requested address") while three source addresses, taken
 * round-robin with IP_BIND_ADDRESS_NO_PORT, carry three times the connections to the same destination.
 */
class SourceAddressesIT {

    private static final int PORTS = 300;
    private static final int SERVER_PORT = 8080;

    @TempDir
    Path work;

    @Test
    void oneSourceAddressRunsOutOfPortsWhileThreeCarryThreeTimesTheConnections() throws Exception {
        try (StsNamespace ns = StsNamespace.create()) {
            ns.exec("sysctl", "-q", "-w", "net.ipv4.ip_local_port_range=40000 " + (40000 + PORTS - 1));
            startNginx(ns);

            List<JtlRow> one = runJMeter(ns, "one", "127.0.0.9", 450);
            long oneOpen = maxOpen(one);
            List<JtlRow> failed = one.stream().filter(r -> !r.success()).toList();
            assertTrue(!failed.isEmpty(), "450 connections from one address through 300 ports must fail");
            for (JtlRow r : failed) {
                assertEquals("Non HTTP response code: java.net.BindException", r.responseCode(), r.toString());
                assertEquals("Non HTTP response message: Cannot assign requested address", r.responseMessage());
            }
            assertTrue(oneOpen <= PORTS && oneOpen >= PORTS - 10, "one address holds at most its 300 ports: "
                    + oneOpen);

            List<JtlRow> three = runJMeter(ns, "three", "127.0.0.2-4", 3 * PORTS - 30);
            assertEquals(0, three.stream().filter(r -> !r.success()).count(), "three addresses: no error");
            long threeOpen = maxOpen(three);
            assertEquals(3 * PORTS - 30, threeOpen, "three addresses carry three times the connections");
            assertTrue(threeOpen > 2.5 * oneOpen, "three addresses: " + threeOpen + ", one: " + oneOpen);
        }
    }

    private void startNginx(StsNamespace ns) throws Exception {
        Path dir = work.resolve("nginx");
        String[] nginx = ScaleNginx.prepare(dir, "127.0.0.1:" + SERVER_PORT);
        ns.start(List.of(nginx), Files.createDirectories(dir), dir.resolve("nginx.out"));
        for (int i = 0; i < 100; i++) {
            try {
                ns.exec("bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/" + SERVER_PORT);
                return;
            } catch (IllegalStateException notYet) {
                Thread.sleep(100);
            }
        }
        throw new IllegalStateException("nginx did not listen in " + ns.name + ": "
                + Files.readString(dir.resolve("nginx.out")));
    }

    /** One JMeter thread keeping {@code connections} connections, each paced to a request per second, for 6 s. */
    private List<JtlRow> runJMeter(StsNamespace ns, String name, String sources, int connections) throws Exception {
        JMeterHome home = JMeterHome.fromStampedeRoot().requirePlugin("stampede-plugins.jar");
        Path dir = Files.createDirectories(work.resolve(name));
        Map<String, String> props = new LinkedHashMap<>(JtlFormat.csvWithAllColumns());
        props.put("jmeterengine.nongui.port", "0");
        props.put("host", "127.0.0.1");
        props.put("port", Integer.toString(SERVER_PORT));
        props.put("threads", "1");
        props.put("conns", Integer.toString(connections));
        props.put("pacing_ms", "1000");
        props.put("source_addresses", sources);
        props.put("duration", "6");
        props.put("sample_variables", "stampede_open_connections");
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xms256m", "-Xmx512m", "-jar", home.launcher().toString(), "-n", "-t",
                Plans.get("scale-connections.jmx").toString(), "-l", dir.resolve("jmeter.jtl").toString(), "-j",
                dir.resolve("jmeter.log").toString()));
        props.forEach((k, v) -> cmd.add("-J" + k + "=" + v));
        Process p = ns.start(cmd, dir, dir.resolve("jmeter.out"));
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "JMeter did not end within 120 s");
        assertEquals(0, p.exitValue(), Files.readString(dir.resolve("jmeter.out")));
        return Jtl.read(dir.resolve("jmeter.jtl")).rows();
    }

    private static long maxOpen(List<JtlRow> rows) {
        return rows.stream().mapToLong(r -> r.getLong("stampede_open_connections")).max().orElse(0);
    }
}
