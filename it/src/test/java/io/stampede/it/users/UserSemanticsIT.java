/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.users;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.it.support.JMeterHome;
import io.stampede.it.support.JMeterRun;
import io.stampede.it.support.Jtl;
import io.stampede.it.support.JtlRow;
import io.stampede.it.support.NginxServer;
import io.stampede.jmeter.JavaRuntime;
import io.stampede.jmeter.JavaSelection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same plan under JMeter's Thread Group and under the Stampede Virtual User Thread Group, same users, same
 * Java: what each user sent, as nginx logged it (its X-User, path and query, session cookie and a cookie scoped to
 * one path), must be the same request for request, and so must each user's samples in the JTL (labels with
 * the Transaction Controller's, assertion outcomes). The plan (it/src/test/resources/plans/users-semantics.jmx)
 * runs CSV Data Sets in both sharing modes, a per-user and a global counter, __counter, cookies, Once Only,
 * Transaction, If, While, ForEach and Loop controllers, pre- and post-processors (one changes its sampler's path in
 * place, as scripts do, which our group's users share until one changes it), an assertion and a timer. What
 * depends on timing in both groups alike (which user draws which global counter value and which line of the CSV
 * shared by all users) is compared as the whole run's draws instead of per user.
 */
class UserSemanticsIT {
    private static final int USERS = 20;
    private static final int LOOPS = 3;
    private static final String LOG = "sem.log";
    private static final Pattern SHARED = Pattern.compile("&(cg|a)=([^& ]*)");

    @TempDir
    Path work;

    @Test
    void eachUserSendsTheSameRequestsUnderEitherThreadGroup() throws Exception {
        JavaRuntime java = JavaSelection.fromEnvironment(null).choose(true).runtime();
        JMeterHome home = JMeterHome.fromStampedeRoot().requirePlugin("stampede-plugins.jar");
        Path csv = Files.createDirectories(work.resolve("csv"));
        Files.write(csv.resolve("all.csv"), List.of("A1", "A2", "A3", "A4", "A5", "A6", "A7"));
        Files.write(csv.resolve("own.csv"), List.of("T1", "T2", "T3", "T4", "T5"));
        Path virtualPlan = JMeterHome.stampedeRoot().resolve("it/src/test/resources/plans/users-semantics.jmx");
        Path stockPlan = work.resolve("users-semantics-stock.jmx");
        Files.writeString(stockPlan, withJMeterThreadGroup(Files.readString(virtualPlan)));

        try (NginxServer nginx = NginxServer.start(site())) {
            Run virtual = run(home, java, nginx, virtualPlan, csv, "virtual");
            Run stock = run(home, java, nginx, stockPlan, csv, "stock");

            assertEquals(USERS, stock.requests.size(), "every stock user reached nginx");
            assertEquals(stock.requests.keySet(), virtual.requests.keySet(), "the same users");
            for (String user : stock.requests.keySet()) {
                assertEquals(stock.requests.get(user), virtual.requests.get(user), "requests of user " + user);
                assertEquals(stock.samples.get("users 1-" + user), virtual.samples.get("users 1-" + user),
                        "samples of user " + user);
            }
            assertEquals(stock.shared, virtual.shared, "global counter values and shared CSV lines, whole run");
            checkThePlanDidWhatItSays(stock);
        }
    }

    /** The comparison above is only worth something if the plan exercised what it claims; checked on the stock run. */
    private static void checkThePlanDidWhatItSays(Run stock) {
        List<String> first = stock.requests.get("1");
        assertTrue(first.get(0).startsWith("/sem/login?u=1 - -"), "logs in once, without cookies: " + first);
        long logins = first.stream().filter(r -> r.startsWith("/sem/login")).count();
        assertEquals(1, logins, "Once Only: " + first);
        for (String r : first.subList(1, first.size())) {
            assertTrue(r.contains(" S1 "), "every later request carries the session cookie: " + r);
            assertEquals(r.startsWith("/sem/loop/"), r.endsWith(" D1"), "path-scoped cookie only on its path: " + r);
        }
        // Per-user counter 1..3, the While runs cu times, If only on odd cu, ForEach over the login's 3 items,
        // the inner Loop twice: (step + while... ) per iteration.
        long whiles = first.stream().filter(r -> r.startsWith("/sem/while")).count();
        long odds = first.stream().filter(r -> r.startsWith("/sem/odd")).count();
        long eaches = first.stream().filter(r -> r.startsWith("/sem/each/")).count();
        long loops = first.stream().filter(r -> r.startsWith("/sem/loop/")).count();
        assertEquals(1 + 2 + 3, whiles, first.toString());
        assertEquals(2, odds, first.toString());
        assertEquals(3 * LOOPS, eaches, first.toString());
        assertEquals(2 * LOOPS, loops, first.toString());
        assertTrue(first.stream().anyMatch(r -> r.startsWith("/sem/step/N1xx?cu=3&t=T3&n=")), first.toString());
        assertTrue(first.stream().anyMatch(r -> r.contains("pre=p2 ")), "pre-processor ran: " + first);
        // A script changes a plain property of its sampler in place on odd iterations; the sample after undoes it.
        List<String> plain = first.stream().filter(r -> r.startsWith("/sem/plain")).map(r -> r.split(" ")[0])
                .toList();
        assertEquals(List.of("/sem/plain/1", "/sem/plain", "/sem/plain/3"), plain, first.toString());
        List<String> txs = stock.samples.get("users 1-1").stream().filter(s -> s.startsWith("tx ")).toList();
        assertEquals(List.of("tx true", "tx false", "tx true"), txs, "Transaction with the assertion's outcome");
    }

    private record Run(Map<String, List<String>> requests, Map<String, List<String>> samples,
                       Map<String, Long> shared) {
    }

    private Run run(JMeterHome home, JavaRuntime java, NginxServer nginx, Path plan, Path csv, String name)
            throws Exception {
        Path log = nginx.dir().resolve(LOG);
        int before = Files.exists(log) ? Files.readAllLines(log).size() : 0;
        JMeterRun.Result r = JMeterRun.of(home, plan, Files.createDirectories(work.resolve(name))).java(java.home())
                .property("host", nginx.host()).property("port", nginx.port()).property("users", USERS)
                .property("loops", LOOPS).property("csv_dir", csv.toString())
                .timeout(Duration.ofMinutes(3)).run();
        assertTrue(r.succeeded(), r.describe());
        Map<String, List<String>> requests = new TreeMap<>();
        Map<String, Long> shared = new TreeMap<>();
        List<String> lines = Files.readAllLines(log);
        for (String line : lines.subList(before, lines.size())) {
            int space = line.indexOf(' ');
            String rest = line.substring(space + 1);
            Matcher m = SHARED.matcher(rest);
            while (m.find()) {
                // One step per user and iteration: its values are the iteration's draw of the shared ones.
                if (rest.startsWith("/sem/step/")) {
                    shared.merge(m.group(1) + "=" + m.group(2), 1L, Long::sum);
                }
            }
            requests.computeIfAbsent(line.substring(0, space), u -> new ArrayList<>()).add(m.replaceAll(""));
        }
        Map<String, List<String>> samples = new TreeMap<>();
        for (JtlRow row : Jtl.read(r.jtl()).rows()) {
            samples.computeIfAbsent(row.threadName(), t -> new ArrayList<>())
                    .add(row.label() + " " + row.success());
        }
        return new Run(requests, samples, shared);
    }

    /** The same plan on JMeter's own Thread Group: only the group's element changes, its settings stay. */
    static String withJMeterThreadGroup(String plan) {
        String ours = "io.stampede.threads.VirtualUserThreadGroup";
        String swapped = plan.replace("<" + ours + " guiclass=\"io.stampede.threads.gui.VirtualUserThreadGroupGui\" "
                + "testclass=\"" + ours + "\"", "<ThreadGroup guiclass=\"ThreadGroupGui\" testclass=\"ThreadGroup\"")
                .replace("</" + ours + ">", "</ThreadGroup>");
        if (swapped.contains(ours)) {
            throw new IllegalStateException("the plan's thread group element was not swapped");
        }
        return swapped;
    }

    /**
     * nginx answers with values derived from the request only (the user's number, the path), so both runs get the
     * same answers and any difference in what a user sent is the thread group's.
     */
    private static NginxServer.Options site() {
        String logged = "access_log $dir/" + LOG + " sem;";
        String http = "log_format sem '$http_x_user $request_uri $cookie_sid $cookie_deep';";
        String server = String.join("\n        ",
                "location = /sem/login { " + logged + " add_header Set-Cookie \"sid=S$arg_u; Path=/\" always;"
                        + " add_header Set-Cookie \"deep=D$arg_u; Path=/sem/loop\" always; default_type text/plain;"
                        + " return 200 \"next=N$arg_u item=a$arg_u item=b$arg_u item=c$arg_u\\n\"; }",
                "location ~ ^/sem/step/(?<v>[^/]+)$ { " + logged + " default_type text/plain;"
                        + " return 200 \"next=${v}x cu=$arg_cu\\n\"; }",
                "location /sem/ { " + logged + " default_type text/plain; return 200 \"ok\\n\"; }");
        return NginxServer.Options.defaults().withSite(http, server);
    }
}
