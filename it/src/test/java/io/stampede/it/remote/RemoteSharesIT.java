/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.it.support.FreePort;
import io.stampede.it.support.JMeterHome;
import io.stampede.it.support.Jtl;
import io.stampede.it.support.JtlRow;
import io.stampede.it.support.NginxServer;
import io.stampede.it.support.Plans;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * `stampede run --remote` with 2 engines divides the plan between them: nginx's access log counts the plan's
 * requests (7 users x 5 loops x 3 requests), not twice them, the users are split 4 + 3 (the first engine's threads
 * named i1of2-..., the second's i2of2-..., as --share names them) and no CSV user logs in from both engines;
 * `--whole-plan-per-engine` brings JMeter's own behaviour back (twice the requests).
 */
class RemoteSharesIT {

    private static final Path ROOT = JMeterHome.stampedeRoot();
    private static final int PLAN_REQUESTS = 7 * 5 * 3;

    private final List<EngineProcess> engines = new ArrayList<>();
    private NginxServer nginx;

    @TempDir
    Path dir;

    @AfterEach
    void stopEverything() {
        engines.forEach(EngineProcess::close);
        if (nginx != null) {
            nginx.close();
        }
    }

    private Jtl run(String name, String remote, String... options) throws Exception {
        List<String> args = new ArrayList<>(List.of("run", Plans.get("shares.jmx").toString(), "--out",
                dir.resolve(name).toString(), "--no-dashboard", "--heap", "256m", "--host", "127.0.0.1", "--port",
                Integer.toString(nginx.port()), "--remote", remote));
        args.addAll(List.of(options));
        Path console = dir.resolve(name + ".out");
        assertEquals(0, StampedeCli.runToEnd(ROOT, dir, console, args), Files.readString(console));
        return Jtl.read(dir.resolve(name).resolve("results.jtl"));
    }

    @Test
    void twoEnginesRunThePlanOnceBetweenThem() throws Exception {
        nginx = NginxServer.start(NginxServer.Options.defaults().withAccessLog());
        for (int i = 0; i < 2; i++) {
            engines.add(EngineProcess.start(ROOT, dir, FreePort.loopback(), FreePort.loopback(), Duration.ofSeconds(120)));
        }
        String remote = engines.stream().map(EngineProcess::address).collect(Collectors.joining(","));

        Jtl shared = run("shared", remote);
        assertEquals(PLAN_REQUESTS, nginx.accessLogConnections().size(), "requests nginx served");
        assertEquals(PLAN_REQUESTS, shared.count());
        Map<String, Integer> perEngine = new TreeMap<>();
        Map<String, Set<String>> users = new TreeMap<>();
        for (JtlRow r : shared.rows()) {
            String engine = r.threadName().substring(0, r.threadName().indexOf('-'));
            perEngine.merge(engine, 1, Integer::sum);
            if (r.label().equals("login")) {
                users.computeIfAbsent(engine, k -> new HashSet<>()).add(r.url().substring(r.url().indexOf("user=") + 5));
            }
        }
        // each engine's threads carry its share, as --share names an injector's (i1of2-Shoppers 1-3)
        assertEquals(Map.of("i1of2", 4 * 5 * 3, "i2of2", 3 * 5 * 3), perEngine, "samples by thread-name prefix");
        Set<String> first = new HashSet<>(users.get("i1of2"));
        first.retainAll(users.get("i2of2"));
        assertEquals(Set.of(), first, "CSV users that logged in from both engines: " + users);
        assertTrue(Files.readString(dir.resolve("shared.out")).contains("each runs its share of the plan"));

        nginx.clearAccessLog();
        // JMeter's engines read a relative CSV path from their own folder: give them the file's absolute path
        Jtl whole = run("whole", remote, "--whole-plan-per-engine", "-J",
                "users_csv=" + Plans.get("shares-users.csv").toAbsolutePath());
        assertEquals(2 * PLAN_REQUESTS, nginx.accessLogConnections().size(), "JMeter's way: the plan on each engine");
        assertEquals(2 * PLAN_REQUESTS, whole.count());
    }
}
