/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.users;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.it.support.HttpbinServer;
import io.stampede.it.support.JMeterHome;
import io.stampede.it.support.JMeterRun;
import io.stampede.it.support.Jtl;
import io.stampede.it.support.NginxServer;
import io.stampede.jmeter.JavaRuntime;
import io.stampede.jmeter.JavaSelection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * plans/virtual-users.jmx on JMeter 5.6.3 non-GUI, 2,000 users in the Stampede Virtual User Thread Group on a Java
 * 21+ (found like `stampede run` does), against nginx (login, steps) and httpbin (echo behind nginx). Checked from
 * the server's log: every user's session cookie and every extracted value travel only with that user.
 */
class VirtualUsersIT {
    private static final int USERS = 2000;
    private static final int LOOPS = 3;

    private static JMeterHome home;
    private static HttpbinServer httpbin;
    private static NginxServer nginx;

    @TempDir
    Path work;

    @BeforeAll
    static void start() {
        home = JMeterHome.fromStampedeRoot().requirePlugin("stampede-plugins.jar");
        httpbin = HttpbinServer.start();
        nginx = NginxServer.start(StatefulSite.options(httpbin.port(), true));
    }

    @AfterAll
    static void stop() {
        if (nginx != null) {
            nginx.close();
        }
        if (httpbin != null) {
            httpbin.close();
        }
    }

    private JMeterRun plan(String users) {
        return JMeterRun.of(home, JMeterHome.stampedeRoot().resolve("plans/virtual-users.jmx"), work)
                .property("host", "127.0.0.1").property("port", nginx.port())
                .property("users", users).property("rampup", 10).property("loops", LOOPS)
                .property("think_ms", 500)
                .timeout(Duration.ofMinutes(4));
    }

    @Test
    void twoThousandUsersEachKeepTheirOwnCookieAndValues() throws Exception {
        // Like `stampede run`: a plan with virtual users runs on the newest Java 21+ installed.
        JavaRuntime java = JavaSelection.fromEnvironment(null).choose(true).runtime();
        // The nginx is shared by the class's tests (the heap test's users log in too): count only this run's lines.
        int before = StatefulSite.log(nginx).size();
        JMeterRun.Result r = plan(Integer.toString(USERS)).java(java.home()).run();
        assertTrue(r.succeeded(), r.describe());
        Jtl jtl = Jtl.read(r.jtl());
        assertEquals(USERS, jtl.count("login"), r.describe());
        assertEquals(USERS * LOOPS, jtl.count("step"));
        assertEquals(USERS * LOOPS, jtl.count("echo"));
        assertEquals(USERS * (1 + 2 * LOOPS), jtl.count(), "exact sample count");
        assertEquals(0, jtl.errors(), () -> jtl.filter(row -> !row.success()).rows().stream().limit(5)
                .map(row -> row.label() + " " + row.responseCode() + " " + row.get("failureMessage"))
                .collect(Collectors.joining("\n")));
        assertEquals(USERS, jtl.rows().stream().map(row -> row.threadName()).distinct().count());
        String log = Files.readString(r.log());
        assertTrue(log.contains("on virtual threads (Java " + java.feature() + ")"), "jmeter.log names the mode");

        List<StatefulSite.Request> logged = StatefulSite.log(nginx);
        List<StatefulSite.Request> requests = logged.subList(before, logged.size());
        assertEquals(USERS * (1 + 2 * LOOPS), requests.size(), "requests nginx logged");
        Map<String, String> sidOf = new HashMap<>();
        Map<String, String> userOfValue = new HashMap<>();
        for (StatefulSite.Request q : requests) {
            assertEquals(200, q.status(), q.toString());
            if (q.uri().equals("/login")) {
                assertEquals("-", q.sid(), "a user logs in without a session: " + q);
                assertEquals(null, sidOf.put(q.user(), q.requestId()), "one login per user: " + q.user());
            }
            if (!q.next().equals("-")) {
                assertEquals(null, userOfValue.put(q.next(), q.user()), "values are unique: " + q);
            }
        }
        assertEquals(USERS, sidOf.size(), "every user logged in");
        assertEquals(USERS, new HashSet<>(sidOf.values()).size(), "every user got a session of its own");
        Map<String, Integer> stepsOf = new HashMap<>();
        Map<String, Integer> echoesOf = new HashMap<>();
        for (StatefulSite.Request q : requests) {
            if (q.uri().equals("/login")) {
                continue;
            }
            // The cookie (Cookie Manager for the stock sampler, the extracted sid in the Stampede sampler's header)
            // is the one nginx gave this very user.
            assertEquals(sidOf.get(q.user()), q.sid(), "session of user " + q.user() + ": " + q);
            String value = q.uri().substring(q.uri().lastIndexOf('/') + 1);
            // The extracted value in the path was answered to this very user.
            assertEquals(q.user(), userOfValue.get(value), "value " + value + " of " + q);
            (q.uri().startsWith("/step/") ? stepsOf : echoesOf).merge(q.user(), 1, Integer::sum);
        }
        assertEquals(Set.of(LOOPS), new HashSet<>(stepsOf.values()));
        assertEquals(Set.of(LOOPS), new HashSet<>(echoesOf.values()));
        assertEquals(USERS, stepsOf.size());
        assertEquals(USERS, echoesOf.size());
    }

    @Test
    void javaSeventeenIsRefusedWithOneClearMessage() throws Exception {
        JavaRuntime old = JavaRuntime.current().feature() < JavaSelection.VIRTUAL_THREADS_JAVA
                ? JavaRuntime.current()
                : JavaRuntime.at(Path.of("/usr/lib/jvm/java-17-openjdk-amd64")).orElse(null);
        Assumptions.assumeTrue(old != null, "no Java older than 21 here to be refused");
        JMeterRun.Result r = plan("5").java(old.home()).timeout(Duration.ofMinutes(1)).run();
        assertFalse(r.timedOut(), r.describe());
        String out = Files.readString(r.output());
        String expected = "Stampede Virtual User Thread Group 'Virtual users' needs Java 21 or newer (virtual "
                + "threads); found " + old.feature() + " (";
        assertTrue(out.contains(expected), out);
        assertTrue(out.contains("stampede run --java"), out);
        assertTrue(Files.readString(r.log()).contains(expected), "jmeter.log has it too");
        long samples = Files.exists(r.jtl()) ? Jtl.read(r.jtl()).count() : 0;
        assertEquals(0, samples, "no user ran on OS threads instead");
    }

    /**
     * More users than the heap holds: `stampede run` on a heap of 64 MB with 100,000 users started within 2 s runs
     * out of memory while cloning their plans; it must stop soon (the JVM exits on the first OutOfMemoryError), exit
     * non-zero and say which option to raise, not hang with users dying one by one.
     */
    @Test
    void tooManyUsersForTheHeapEndWithTheHeapHint() throws Exception {
        Path root = JMeterHome.stampedeRoot();
        Path out = work.resolve("oom");
        List<String> cmd = new ArrayList<>(List.of(root.resolve("stampede").toString(), "run",
                root.resolve("it/bench/virtual-users-bench.jmx").toString(), "--host", "127.0.0.1",
                "--port", Integer.toString(nginx.port()), "--heap", "64m", "--no-dashboard", "--out", out.toString(),
                "-J", "users=100000", "-J", "rampup=2", "-J", "hold=60", "-J", "loops=-1", "-J", "think_ms=10000",
                "-J", "stampede.connection_sharing=engine"));
        Path stdout = work.resolve("stampede.out");
        Path stderr = work.resolve("stampede.err");
        long started = System.nanoTime();
        Process p = new ProcessBuilder(cmd).directory(root.toFile())
                .redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
        try {
            boolean ended = p.waitFor(150, TimeUnit.SECONDS);
            String said = Files.readString(stdout) + "\n--- stderr\n" + Files.readString(stderr);
            assertTrue(ended, "stampede run did not end within 150 s of running out of heap:\n" + said);
            assertTrue(p.exitValue() != 0, "exit " + p.exitValue() + ":\n" + said);
            assertTrue(Files.readString(stderr).contains("JMeter ran out of memory with --heap 64m: give it more "
                    + "(e.g. --heap 128m)"), said);
            assertTrue(System.nanoTime() - started < TimeUnit.SECONDS.toNanos(120), said);
        } finally {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
    }
}
