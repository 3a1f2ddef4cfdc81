/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.httprequest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.it.support.JMeterHome;
import io.stampede.it.support.JMeterRun;
import io.stampede.it.support.Jtl;
import io.stampede.it.support.NginxServer;
import io.stampede.it.support.ShopSite;
import io.stampede.jmeter.JavaRuntime;
import io.stampede.jmeter.JavaSelection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * JMeter's HTTP Request on the engine gets the engine-wide connection pool: the requests of plans/recorded-shop.jmx
 * (unchanged HTTP Requests, switched to the engine by the switch jar as {@code stampede run} does) run under the
 * Stampede Virtual User Thread Group on a Java 21+ with {@code stampede.connection_sharing=engine}, against nginx.
 * Every sample passes, and nginx's access log shows the users' requests on at most the pool's connections, not one
 * connection per user.
 */
class HttpRequestVirtualUsersIT {
    private static final int USERS = 200;
    private static final int LOOPS = 3;
    private static final int REQUESTS_PER_LOOP = 3;
    private static final int POOL = 4;
    private static final String SWITCHED = "Upgrading class org.apache.jmeter.protocol.http.sampler.HTTPSamplerProxy";
    private static final String VIRTUAL_USERS = """
            <io.stampede.threads.VirtualUserThreadGroup guiclass="io.stampede.threads.gui.VirtualUserThreadGroupGui" \
            testclass="io.stampede.threads.VirtualUserThreadGroup" testname="Shoppers">
                    <stringProp name="ThreadGroup.on_sample_error">continue</stringProp>
                    <elementProp name="ThreadGroup.main_controller" elementType="LoopController" \
            guiclass="LoopControlPanel" testclass="LoopController" testname="Loop Controller">
                      <boolProp name="LoopController.continue_forever">false</boolProp>
                      <stringProp name="LoopController.loops">${__P(loops,3)}</stringProp>
                    </elementProp>
                    <stringProp name="ThreadGroup.num_threads">${__P(users,200)}</stringProp>
                    <stringProp name="ThreadGroup.ramp_time">${__P(rampup,2)}</stringProp>
                    <stringProp name="VirtualUserThreadGroup.hold">0</stringProp>
                    <stringProp name="ThreadGroup.delay">0</stringProp>
                    <boolProp name="ThreadGroup.same_user_on_next_iteration">true</boolProp>
                  </io.stampede.threads.VirtualUserThreadGroup>""";

    @TempDir
    Path work;

    /**
     * plans/recorded-shop.jmx with its Thread Group replaced by a Virtual User Thread Group and its connect timeout
     * raised from 5 to 60 s: a user's wait for a pooled connection counts against the connect timeout, and 200 users
     * queueing for 4 connections on a loaded 2-core machine waited longer than 5 s (PoolTimeoutException).
     */
    private Path shopOnVirtualUsers() throws Exception {
        Path plans = JMeterHome.stampedeRoot().resolve("plans");
        String plan = Files.readString(plans.resolve("recorded-shop.jmx"));
        int from = plan.indexOf("<ThreadGroup ");
        String end = "</ThreadGroup>";
        int to = plan.indexOf(end, from);
        assertTrue(from > 0 && to > from, "recorded-shop.jmx has one Thread Group");
        Path dir = Files.createDirectories(work.resolve("plan"));
        Files.copy(plans.resolve("recorded-shop-users.csv"), dir.resolve("recorded-shop-users.csv"));
        Path out = dir.resolve("recorded-shop-virtual-users.jmx");
        String timeout = "<stringProp name=\"HTTPSampler.connect_timeout\">5000</stringProp>";
        assertTrue(plan.contains(timeout), "recorded-shop.jmx's defaults set a 5 s connect timeout");
        Files.writeString(out, (plan.substring(0, from) + VIRTUAL_USERS + plan.substring(to + end.length()))
                .replace(timeout, timeout.replace("5000", "60000")));
        return out;
    }

    @Test
    void theShopsRequestsShareTheEnginesPoolUnderVirtualUsers() throws Exception {
        JavaRuntime java = JavaSelection.fromEnvironment(null).choose(true).runtime();
        Path switchJar = JMeterHome.stampedeRoot().resolve(
                "src/target/jmeter-home/switch/stampede-switch-to-stampede.jar");
        try (NginxServer nginx = NginxServer.start(ShopSite.nginx().withAccessLog())) {
            JMeterRun.Result r = JMeterRun.of(JMeterHome.fromStampedeRoot().requirePlugin("stampede-plugins.jar"),
                            shopOnVirtualUsers(), work.resolve("run"))
                    .java(java.home()).property("search_paths", switchJar)
                    .property("host", "127.0.0.1").property("port", nginx.port())
                    .property("users", USERS).property("loops", LOOPS).property("rampup", 5)
                    .property("stampede.connection_sharing", "engine").property("stampede.pool_size", POOL)
                    .timeout(Duration.ofMinutes(3)).run();
            assertTrue(r.succeeded(), r.describe());
            String log = Files.readString(r.log());
            assertTrue(log.contains(SWITCHED), "the stock HTTP Requests ran on the engine");
            assertTrue(log.contains("on virtual threads (Java " + java.feature() + ")"), "jmeter.log names the mode");
            Jtl jtl = Jtl.read(r.jtl());
            assertEquals(USERS * LOOPS * REQUESTS_PER_LOOP, jtl.count(), r.describe());
            assertEquals(0, jtl.errors(), () -> jtl.filter(row -> !row.success()).rows().stream().limit(5)
                    .map(row -> row.label() + " " + row.responseCode() + " " + row.get("failureMessage"))
                    .collect(Collectors.joining("\n")));
            assertEquals(USERS, jtl.rows().stream().map(row -> row.threadName()).distinct().count(), "every user ran");

            List<Long> connections = nginx.accessLogConnections();
            assertEquals(USERS * LOOPS * REQUESTS_PER_LOOP, connections.size(), "requests nginx logged");
            Set<Long> distinct = new HashSet<>(connections);
            assertTrue(distinct.size() <= POOL, USERS + " users' requests arrived on " + distinct.size()
                    + " connections; the engine-wide pool holds at most " + POOL);
        }
    }
}
