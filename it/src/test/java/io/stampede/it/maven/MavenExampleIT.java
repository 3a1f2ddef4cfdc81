/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.it.support.FreePort;
import io.stampede.it.support.JMeterHome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * it/maven-example, the way a team would run it: `./mvnw verify` with the jmeter-maven-plugin against the built-in
 * target. It must pass with sane thresholds, and fail, naming the threshold, when the latency limit cannot be met
 * and when every request fails. Needs the network the first time (Maven 3.9 for the wrapper, the plugin's jars).
 */
class MavenExampleIT {

    private static final Path ROOT = JMeterHome.stampedeRoot();
    private static final Path EXAMPLE = ROOT.resolve("it/maven-example");

    private Process target;

    @TempDir
    Path dir;

    @AfterEach
    void stopTarget() throws InterruptedException {
        if (target != null) {
            target.destroyForcibly();
            target.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void buildPassesAndFailsOnThresholds() throws Exception {
        String version = installPluginJar();
        int port = startTarget();

        Result ok = mvnw(version, "-Dtarget.port=" + port);
        assertEquals(0, ok.exit, ok.output);
        assertTrue(ok.output.contains("Failed requests:             0"), ok.output);
        assertTrue(ok.output.matches("(?s).*stampede-smoke\\.csv: p95 latency \\d+ ms over \\d+ samples, under "
                + "latency\\.under\\.ms=500.*"), ok.output);
        assertTrue(ok.output.contains("BUILD SUCCESS"), ok.output);
        String log;
        try (Stream<Path> logs = Files.list(EXAMPLE.resolve("target/jmeter/logs"))) {
            log = Files.readString(logs.filter(p -> p.toString().endsWith(".log")).findFirst().orElseThrow());
        }
        assertTrue(log.contains("Upgrading class org.apache.jmeter.protocol.http.sampler.HTTPSamplerProxy to"
                + " io.stampede.httprequest.EngineHttpRequest"), "the plan's stock HTTP Request ran on the engine");

        Result slow = mvnw(version, "-Dtarget.port=" + port, "-Dlatency.under.ms=0");
        assertNotEquals(0, slow.exit, slow.output);
        assertTrue(slow.output.contains("not under latency.under.ms=0: failing the build"), slow.output);

        Result refused = mvnw(version, "-Dtarget.port=" + FreePort.loopback(), "-Dload.duration=2");
        assertNotEquals(0, refused.exit, refused.output);
        assertTrue(refused.output.contains("Failing build because error percentage"), refused.output);
        assertTrue(refused.output.contains("(1.0% accepted)"), refused.output);
    }

    /** The example resolves io.stampede:stampede-plugins from a Maven repository: install the jar just built. */
    private String installPluginJar() throws Exception {
        Path jar;
        try (Stream<Path> jars = Files.list(ROOT.resolve("plugins/target"))) {
            // The main jar, not the engine switches attached beside it (stampede-plugins-VERSION-switch-to-*.jar).
            jar = jars.filter(p -> p.getFileName().toString().matches("stampede-plugins-.+\\.jar")
                            && !p.getFileName().toString().contains("-switch-to-"))
                    .findFirst().orElseThrow(() -> new AssertionError("build plugins first: no plugins/target/stampede-plugins-*.jar"));
        }
        String name = jar.getFileName().toString();
        String version = name.substring("stampede-plugins-".length(), name.length() - ".jar".length());
        Result r = run(List.of("mvn", "-B", "-q", "org.apache.maven.plugins:maven-install-plugin:3.1.4:install-file",
                "-Dfile=" + jar, "-DgroupId=io.stampede", "-DartifactId=stampede-plugins", "-Dversion=" + version,
                "-Dpackaging=jar", "-DgeneratePom=true"), dir, "install", 300);
        assertEquals(0, r.exit, r.output);
        // The example opts in to the engine switch (issue 14): its stock HTTP Request runs on the engine.
        Path engineSwitch = jar.resolveSibling(name.replace(".jar", "-switch-to-stampede.jar"));
        Result s = run(List.of("mvn", "-B", "-q", "org.apache.maven.plugins:maven-install-plugin:3.1.4:install-file",
                "-Dfile=" + engineSwitch, "-DgroupId=io.stampede", "-DartifactId=stampede-plugins",
                "-Dversion=" + version, "-Dclassifier=switch-to-stampede", "-Dpackaging=jar", "-DgeneratePom=false"),
                dir, "install-switch", 300);
        assertEquals(0, s.exit, s.output);
        return version;
    }

    private int startTarget() throws Exception {
        int port = FreePort.loopback();
        Path out = dir.resolve("target.out");
        target = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", ROOT.resolve("src/target/stampede.jar").toString(), "target", "--port", Integer.toString(port))
                .redirectErrorStream(true).redirectOutput(out.toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!Files.readString(out).contains("stampede target: serving")) {
            if (!target.isAlive() || System.nanoTime() > deadline) {
                throw new AssertionError("the built-in target did not start:\n" + Files.readString(out));
            }
            Thread.sleep(100);
        }
        return port;
    }

    private Result mvnw(String version, String... properties) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("./mvnw", "-B", "clean", "verify", "-Dstampede.version=" + version));
        cmd.addAll(List.of(properties));
        return run(cmd, EXAMPLE, "mvnw", 900);
    }

    private Result run(List<String> cmd, Path workDir, String name, int timeoutSeconds) throws IOException,
            InterruptedException {
        Path log = Files.createTempFile(dir, name, ".log");
        Process p = new ProcessBuilder(cmd).directory(workDir.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        try {
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                throw new AssertionError(String.join(" ", cmd) + " did not finish in " + timeoutSeconds + " s:\n"
                        + Files.readString(log));
            }
        } finally {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        return new Result(p.exitValue(), Files.readString(log));
    }

    private record Result(int exit, String output) {}
}
