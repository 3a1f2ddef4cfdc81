/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.it.support.Jtl;
import io.stampede.it.support.ProcessTrees;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The release archive on an injector: {@code stampede-VERSION.tar.gz}, built by {@code mvn package}, unpacked into an
 * empty folder outside the checkout and run with a PATH that has {@code java} but no {@code mvn} (nor any other
 * Maven): {@code stampede -V} names the build's versions, the quickstart runs against the built-in target with its
 * dashboard, and two {@code --share} runs merge.
 */
class ReleaseArchiveIT {

    /** Where a Debian-like machine keeps its commands; the user's own PATH (pyenv, cargo, ...) stays out. */
    private static final List<Path> SYSTEM_BIN = Stream.of("/usr/local/sbin", "/usr/local/bin", "/usr/sbin",
            "/usr/bin", "/sbin", "/bin").map(Path::of).toList();

    private final List<Process> processes = new ArrayList<>();

    @TempDir
    Path tmp;

    @AfterEach
    void stopEverything() {
        processes.forEach(ProcessTrees::kill);
    }

    @Test
    void unpackedAnywhereItRunsWithJavaAlone() throws Exception {
        String version = property("stampede.version");
        Path archive = Path.of(property("stampede.release.archive"));
        assertTrue(Files.isRegularFile(archive), archive + " is missing: `mvn package` builds it (src/pom.xml)");
        assertEquals("stampede-" + version + ".tar.gz", archive.getFileName().toString());
        Path unpacked = Files.createDirectory(tmp.resolve("injector"));
        Path bin = pathWithJavaOnly(Files.createDirectory(tmp.resolve("bin")));
        assertEquals(0, finish(start(unpacked, bin, "tar.out", "tar", "-xzf", archive.toString()), "tar", 60));
        Path home = unpacked.resolve("stampede-" + version);
        assertTrue(Files.isExecutable(home.resolve("stampede")), "the launcher is executable");
        for (String checkout : List.of("pom.xml", "src", "plugins", "it")) {
            assertFalse(Files.exists(home.resolve(checkout)), "the archive holds no " + checkout);
        }
        // the premise: this PATH finds java, and no Maven
        assertEquals(1, finish(start(home, bin, "mvn.out", "bash", "-c", "command -v mvn"), "mvn", 10));
        assertEquals(0, finish(start(home, bin, "java.out", "bash", "-c", "command -v java"), "java", 10));

        Path plugin = home.resolve("jmeter/lib/ext/stampede-plugins-" + version + ".jar");
        assertTrue(Files.isRegularFile(plugin), "the plugin jar carries its version in its name");
        try (JarFile jar = new JarFile(plugin.toFile())) {
            assertEquals(version, jar.getManifest().getMainAttributes().getValue("Implementation-Version"));
        }

        Process versions = stampede(home, bin, "version.out", "-V");
        int exit = finish(versions, "stampede -V", 30);
        String v = Files.readString(tmp.resolve("version.out"));
        assertEquals(0, exit, v);
        List<String> lines = v.lines().toList();
        assertEquals("stampede " + version, lines.get(0), v);
        assertEquals("JMeter " + property("jmeter.version") + ", Netty " + property("netty.version"), lines.get(1), v);

        // the README's first command, shortened, with its dashboard
        Process quick = stampede(home, bin, "quick.out", "run", "plans/quickstart.jmx", "-J", "threads=5",
                "-J", "duration=4", "-J", "rampup=1", "--heap", "256m", "--out", "results/quick");
        int quickExit = finish(quick, "quickstart", 150);
        String console = Files.readString(tmp.resolve("quick.out"));
        assertEquals(0, quickExit, console);
        assertTrue(console.contains(" on JMeter at " + home.resolve("jmeter") + ","), "the archive's own JMeter:\n" + console);
        Jtl whole = Jtl.read(home.resolve("results/quick/results.jtl"));
        assertTrue(whole.count() > 5, "every user sent requests: " + whole.count());
        assertEquals(0, whole.errors(), "no errors against the built-in target");
        assertTrue(Files.isRegularFile(home.resolve("results/quick/dashboard/index.html")), "dashboard generated");

        // two injectors' shares, started together, then merged
        List<Process> shares = new ArrayList<>();
        for (int i = 1; i <= 2; i++) {
            shares.add(stampede(home, bin, "share" + i + ".out", "run", "plans/quickstart.jmx", "--share", i + "/2",
                    "-J", "threads=4", "-J", "duration=4", "-J", "rampup=1", "--heap", "256m", "--no-dashboard",
                    "--out", "results/share" + i));
        }
        long shareSamples = 0;
        for (int i = 1; i <= 2; i++) {
            assertEquals(0, finish(shares.get(i - 1), "share " + i, 150),
                    Files.readString(tmp.resolve("share" + i + ".out")));
            Jtl share = Jtl.read(home.resolve("results/share" + i + "/results.jtl"));
            assertTrue(share.count() > 0, "share " + i + " sent requests");
            shareSamples += share.count();
        }
        Process merge = stampede(home, bin, "merge.out", "merge", "--no-dashboard", "results/share1",
                "results/share2", "-o", "results/merged");
        assertEquals(0, finish(merge, "merge", 60), Files.readString(tmp.resolve("merge.out")));
        Jtl merged = Jtl.read(home.resolve("results/merged/results.jtl"));
        assertEquals(shareSamples, merged.count(), "the merged JTL holds every share's samples");
        assertEquals(0, merged.errors());
        Map<String, Long> perShare = merged.rows().stream().collect(Collectors.groupingBy(
                r -> r.threadName().substring(0, r.threadName().indexOf('-')), HashMap::new, Collectors.counting()));
        assertEquals(Set.of("i1of2", "i2of2"), perShare.keySet(), "both injectors' threads: " + perShare);
        assertTrue(Files.isRegularFile(home.resolve("results/merged/latency.hlog")), "the merged histogram");
    }

    /**
     * A folder of links to every command in the system's bin folders except Maven's, and {@code java} to the Java
     * this test runs on: an injector with a Java runtime, without Maven.
     */
    private static Path pathWithJavaOnly(Path bin) throws IOException {
        Files.createSymbolicLink(bin.resolve("java"), Path.of(System.getProperty("java.home"), "bin", "java"));
        for (Path dir : SYSTEM_BIN) {
            if (!Files.isDirectory(dir)) {
                continue;
            }
            try (Stream<Path> commands = Files.list(dir)) {
                for (Path c : commands.toList()) {
                    String name = c.getFileName().toString();
                    if (!name.startsWith("mvn") && Files.isExecutable(c)
                            && !Files.exists(bin.resolve(name), LinkOption.NOFOLLOW_LINKS)) {
                        Files.createSymbolicLink(bin.resolve(name), c);
                    }
                }
            }
        }
        return bin;
    }

    private Process stampede(Path home, Path bin, String console, String... args) throws IOException {
        // the launcher's `#!/usr/bin/env bash` finds bash on this PATH too
        List<String> cmd = new ArrayList<>(List.of(home.resolve("stampede").toString()));
        cmd.addAll(List.of(args));
        return start(home, bin, console, cmd.toArray(String[]::new));
    }

    private Process start(Path dir, Path bin, String console, String... cmd) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(tmp.resolve(console).toFile());
        Map<String, String> env = pb.environment();
        env.keySet().removeIf(k -> k.startsWith("MAVEN") || k.startsWith("M2") || k.equals("JAVA_HOME"));
        env.put("PATH", bin.toString());
        Process p = pb.start();
        processes.add(p);
        return p;
    }

    private static int finish(Process p, String what, int seconds) throws InterruptedException {
        if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
            ProcessTrees.kill(p);
            throw new AssertionError(what + " did not finish in " + seconds + " s");
        }
        return p.exitValue();
    }

    private static String property(String name) {
        String v = System.getProperty(name);
        assertNotNull(v, name + " is not set: run through `mvn -pl it verify` (it/pom.xml's failsafe passes it)");
        return v;
    }
}
