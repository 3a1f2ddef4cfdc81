/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.it.support.FreePort;
import io.stampede.it.support.JMeterHome;
import io.stampede.it.support.ProcessTrees;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 33, finding 13: RMI over TLS made easy and without a password on any command line. One command creates
 * the keystore and its password file (0600); an engine and a controller given them run a short plan over RMI/TLS,
 * and no process of either (CLI, JMeter engine, JMeter controller) carries the password in its arguments.
 */
class RmiTlsIT {

    private static final Path ROOT = JMeterHome.stampedeRoot();

    @TempDir
    Path dir;

    @Test
    void engineAndControllerOverTlsWithTheCreatedKeystore() throws Exception {
        Path tls = dir.resolve("tls");
        Path created = dir.resolve("create.out");
        assertEquals(0, StampedeCli.runToEnd(ROOT, dir, created, List.of("server", "create-keystore", tls.toString())),
                Files.readString(created));
        Path keystore = tls.resolve("rmi_keystore.jks");
        Path passwordFile = tls.resolve("rmi_keystore.password");
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(passwordFile)));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(keystore)));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(tls)));
        String password = Files.readString(passwordFile).strip();
        assertTrue(password.length() >= 20 && !password.equals("changeit"), "a random password");

        int registry = FreePort.loopback();
        try (EngineProcess engine = EngineProcess.start(ROOT, dir, registry, FreePort.loopback(),
                Duration.ofSeconds(120), "--ssl-keystore", keystore.toString(), "--ssl-password-file",
                passwordFile.toString())) {
            assertTrue(engine.output().contains("RMI over SSL with " + keystore), engine.output());
            for (ProcessHandle p : engine.processes()) {
                assertFalse(arguments(p).contains(password), "the engine's command line carries the password");
            }
            // the property file JMeter read the password from (-q), and its private folder, are gone once it is up
            String engineArgs = arguments(engine.processes().get(engine.processes().size() - 1));
            Matcher q = Pattern.compile(" -q (\\S+)").matcher(engineArgs);
            assertTrue(q.find(), "the engine reads its password from a property file: " + engineArgs);
            assertFalse(Files.exists(Path.of(q.group(1)).getParent()), "the engine's private folder is left: "
                    + q.group(1));
            Path console = dir.resolve("run.out");
            Process run = new ProcessBuilder(StampedeCli.command(ROOT, "run", ROOT.resolve("plans/quickstart.jmx")
                    .toString(), "--out", dir.resolve("run").toString(), "--no-dashboard", "--heap", "512m",
                    "--remote", engine.address(), "--rmi-keystore", keystore.toString(), "--rmi-password-file",
                    passwordFile.toString(), "-J", "threads=2", "-J", "duration=6", "-J", "rampup=0"))
                    .directory(dir.toFile()).redirectErrorStream(true).redirectOutput(console.toFile()).start();
            try {
                List<String> seen = new ArrayList<>();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
                while (run.isAlive() && System.nanoTime() < deadline) {
                    List<ProcessHandle> tree = new ArrayList<>(List.of(run.toHandle()));
                    tree.addAll(run.descendants().toList());
                    for (ProcessHandle p : tree) {
                        String args = arguments(p);
                        assertFalse(args.contains(password), "the controller's command line carries the password");
                        if (args.contains("-R") && !seen.contains(args)) {
                            seen.add(args);
                        }
                    }
                    Thread.sleep(250);
                }
                assertTrue(run.waitFor(5, TimeUnit.SECONDS), Files.readString(console));
                assertEquals(0, run.exitValue(), Files.readString(console));
                assertFalse(seen.isEmpty(), "the controller's command line was read");
                assertTrue(seen.get(0).contains("-Jserver.rmi.ssl.keystore.file=" + keystore), seen.get(0));
                assertTrue(seen.get(0).contains(" -q "), "the password comes in a property file: " + seen.get(0));
                List<String> jtl = Files.readAllLines(dir.resolve("run/results.jtl"));
                assertTrue(jtl.size() > 10, "samples came back over RMI/TLS: " + jtl.size() + " lines");
            } finally {
                ProcessTrees.kill(run);
            }
        }
    }

    private static String arguments(ProcessHandle p) {
        return p.info().commandLine().orElse("");
    }
}
