/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.doctor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.plan.JmxTree;
import io.stampede.plan.PlanException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LoadEstimateTest {

    @TempDir
    Path dir;

    private Path plan(String threadGroups) throws Exception {
        Path p = dir.resolve("plan.jmx");
        Files.writeString(p, """
                <?xml version="1.0" encoding="UTF-8"?>
                <jmeterTestPlan version="1.2" properties="5.0" jmeter="5.6.3">
                  <hashTree>
                    <TestPlan guiclass="TestPlanGui" testclass="TestPlan" testname="plan">
                      <elementProp name="TestPlan.user_defined_variables" elementType="Arguments">
                        <collectionProp name="Arguments.arguments">
                          <elementProp name="users" elementType="Argument">
                            <stringProp name="Argument.name">users</stringProp>
                            <stringProp name="Argument.value">${__P(users,30)}</stringProp>
                          </elementProp>
                        </collectionProp>
                      </elementProp>
                    </TestPlan>
                    <hashTree>
                """ + threadGroups + """
                    </hashTree>
                  </hashTree>
                </jmeterTestPlan>
                """);
        return p;
    }

    private static String threadGroup(String threads, String loops, String samplers) {
        return """
                <ThreadGroup guiclass="ThreadGroupGui" testclass="ThreadGroup" testname="users" enabled="true">
                  <elementProp name="ThreadGroup.main_controller" elementType="LoopController" testclass="LoopController">
                    <stringProp name="LoopController.loops">%s</stringProp>
                  </elementProp>
                  <stringProp name="ThreadGroup.num_threads">%s</stringProp>
                  <boolProp name="ThreadGroup.scheduler">false</boolProp>
                </ThreadGroup>
                <hashTree>%s</hashTree>
                """.formatted(loops, threads, samplers);
    }

    private static String raw(String props) {
        return """
                <io.stampede.sampler.HttpRawSampler guiclass="io.stampede.sampler.gui.HttpRawSamplerGui"
                    testclass="io.stampede.sampler.HttpRawSampler" testname="welcome" enabled="true">
                  <stringProp name="stampede.host">${__P(host,127.0.0.1)}</stringProp>
                  <stringProp name="stampede.port">${__P(port,8080)}</stringProp>
                  %s
                </io.stampede.sampler.HttpRawSampler>
                <hashTree/>
                """.formatted(props);
    }

    private static LoadEstimate read(Path p, Map<String, String> props) throws Exception {
        return LoadEstimate.of(JmxTree.parse(p), props);
    }

    @Test
    void keepAlivePlanOpensOneConnectionPerThreadAndNoNewOnes() throws Exception {
        LoadEstimate plan = read(plan(threadGroup("${__P(threads,1000)}", "50", raw(""))), Map.of());
        assertEquals(1000, plan.load().connections().getAsLong());
        assertEquals(0.0, plan.load().newConnectionsPerSecond().getAsDouble());
        assertTrue(plan.load().totalNewConnections().isEmpty());
        assertEquals(Set.of("127.0.0.1:8080"), plan.targets());
        assertTrue(plan.load().basis().get(0).contains("1000 threads x 50 loops, 1 HTTP sampler(s), keep-alive"),
                plan.load().basis().toString());
    }

    @Test
    void propertiesFromTheCommandLineWin() throws Exception {
        LoadEstimate plan = read(plan(threadGroup("${__P(threads,1000)}", "50", raw(""))),
                Map.of("threads", "200", "port", "9090"));
        assertEquals(200, plan.load().connections().getAsLong());
        assertEquals(Set.of("127.0.0.1:9090"), plan.targets());
    }

    @Test
    void keepAliveOffWithAKeepAliveRequestMakesTheInjectorCloseEachConnection() throws Exception {
        String request = "<stringProp name=\"stampede.raw.request\">GET / HTTP/1.1\nHost: x\nConnection: keep-alive\n\n"
                + "</stringProp><boolProp name=\"stampede.keep_alive\">false</boolProp>";
        LoadEstimate plan = read(plan(threadGroup("5", "100", raw(request))), Map.of());
        assertEquals(500.0, plan.load().newConnectionsPerSecond().getAsDouble());
        assertEquals(500, plan.load().totalNewConnections().getAsLong());
        assertTrue(plan.load().basis().get(0).contains("1 connection(s) per iteration closed by the injector (keep-alive"
                + " off) = 500 new connections/s"), plan.load().basis().toString());
        assertTrue(plan.load().basis().get(1).contains("assume 10 ms per sample"), plan.load().basis().toString());
    }

    @Test
    void connectionCloseLeavesTimeWaitOnTheServer() throws Exception {
        // Measured: Stampede's HttpSampler with keep-alive off (it sends "Connection: close") against nginx in a
        // 500-port namespace: 2000 requests, no errors, every TIME_WAIT socket on nginx's port.
        String request = "<stringProp name=\"stampede.raw.request\">GET / HTTP/1.1\nHost: x\nConnection: close\n\n</stringProp>";
        LoadEstimate explicit = read(plan(threadGroup("2", "-1", raw(request))), Map.of());
        assertEquals(0.0, explicit.load().newConnectionsPerSecond().getAsDouble());
        assertTrue(explicit.load().basis().get(1).contains("about 200 new connections/s that the server closes"),
                explicit.load().basis().toString());
        LoadEstimate keepAliveOff = read(plan(threadGroup("2", "-1",
                raw("<boolProp name=\"stampede.keep_alive\">false</boolProp>"))), Map.of());
        assertEquals(0.0, keepAliveOff.load().newConnectionsPerSecond().getAsDouble());
        assertTrue(keepAliveOff.load().totalNewConnections().isEmpty());
        assertEquals(2, keepAliveOff.load().connections().getAsLong());
    }

    @Test
    void connectionsPerThreadMultiplyAndVariablesResolve() throws Exception {
        LoadEstimate plan = read(plan(threadGroup("${users}", "1",
                raw("<stringProp name=\"stampede.connections_per_thread\">4</stringProp>"))), Map.of());
        assertEquals(120, plan.load().connections().getAsLong());
    }

    @Test
    void arrivalsAndConcurrencyGroupsAddUp() throws Exception {
        String arrivals = """
                <com.blazemeter.jmeter.threads.arrivals.ArrivalsThreadGroup
                    testclass="com.blazemeter.jmeter.threads.arrivals.ArrivalsThreadGroup" testname="arr">
                  <stringProp name="TargetLevel">600</stringProp>
                  <stringProp name="Unit">M</stringProp>
                  <stringProp name="ConcurrencyLimit">50</stringProp>
                </com.blazemeter.jmeter.threads.arrivals.ArrivalsThreadGroup>
                <hashTree>%s</hashTree>
                <com.blazemeter.jmeter.threads.concurrency.ConcurrencyThreadGroup
                    testclass="com.blazemeter.jmeter.threads.concurrency.ConcurrencyThreadGroup" testname="conc">
                  <stringProp name="TargetLevel">70</stringProp>
                </com.blazemeter.jmeter.threads.concurrency.ConcurrencyThreadGroup>
                <hashTree>%s</hashTree>
                <kg.apc.jmeter.threads.SteppingThreadGroup testclass="kg.apc.jmeter.threads.SteppingThreadGroup" testname="step" enabled="false">
                  <stringProp name="ThreadGroup.num_threads">9999</stringProp>
                </kg.apc.jmeter.threads.SteppingThreadGroup>
                <hashTree>%s</hashTree>
                """.formatted(raw("<boolProp name=\"stampede.keep_alive\">false</boolProp><stringProp"
                + " name=\"stampede.raw.request\">GET / HTTP/1.1\nConnection: keep-alive\n\n</stringProp>"), raw(""), raw(""));
        LoadEstimate plan = read(plan(arrivals), Map.of());
        assertEquals(120, plan.load().connections().getAsLong());
        assertEquals(10.0, plan.load().newConnectionsPerSecond().getAsDouble(), 1e-9);
    }

    @Test
    void stockHttpSamplersWithoutTheSameUserOpenOneConnectionPerIteration() throws Exception {
        String stock = """
                <HTTPSamplerProxy guiclass="HttpTestSampleGui" testclass="HTTPSamplerProxy" testname="get">
                  <stringProp name="HTTPSampler.domain">web</stringProp>
                  <stringProp name="HTTPSampler.port">80</stringProp>
                  <boolProp name="HTTPSampler.use_keepalive">true</boolProp>
                </HTTPSamplerProxy>
                <hashTree/>
                <HTTPSamplerProxy guiclass="HttpTestSampleGui" testclass="HTTPSamplerProxy" testname="get2">
                  <stringProp name="HTTPSampler.domain">web</stringProp>
                </HTTPSamplerProxy>
                <hashTree/>
                """;
        LoadEstimate sameUser = read(plan(threadGroup("10", "50", stock)), Map.of());
        assertEquals(0.0, sameUser.load().newConnectionsPerSecond().getAsDouble(), "JMeter's default keeps the user");
        String newUser = threadGroup("10", "50", stock).replace("<boolProp name=\"ThreadGroup.scheduler\">false</boolProp>",
                "<boolProp name=\"ThreadGroup.scheduler\">false</boolProp>"
                        + "<boolProp name=\"ThreadGroup.same_user_on_next_iteration\">false</boolProp>");
        LoadEstimate plan = read(plan(newUser), Map.of());
        // 10 threads x 1000/(2 samples x 10 ms) iterations/s x 1 connection per iteration
        assertEquals(500.0, plan.load().newConnectionsPerSecond().getAsDouble());
        assertEquals(500, plan.load().totalNewConnections().getAsLong());
        assertEquals(Set.of("web:80"), plan.targets());
    }

    @Test
    void badPlansAreRefusedWithTheFieldAndTheFix() throws Exception {
        PlanException unknownVariable = assertThrows(PlanException.class,
                () -> read(plan(threadGroup("${nope}", "1", raw(""))), Map.of()));
        assertTrue(unknownVariable.getMessage().startsWith("plan.jmx: 'users' ThreadGroup.num_threads = '${nope}':"
                + " variable ${nope} is not a user defined variable"), unknownVariable.getMessage());
        PlanException notNumber = assertThrows(PlanException.class,
                () -> read(plan(threadGroup("${__P(t,many)}", "1", raw(""))), Map.of()));
        assertTrue(notNumber.getMessage().contains("ThreadGroup.num_threads = 'many' is not a number"), notNumber.getMessage());
        PlanException function = assertThrows(PlanException.class,
                () -> read(plan(threadGroup("${__Random(1,5)}", "1", raw(""))), Map.of()));
        assertTrue(function.getMessage().contains("cannot evaluate"), function.getMessage());
        PlanException empty = assertThrows(PlanException.class, () -> read(plan(""), Map.of()));
        assertTrue(empty.getMessage().contains("no enabled thread group"), empty.getMessage());
        Path junk = Files.writeString(dir.resolve("junk.jmx"), "not xml");
        assertTrue(assertThrows(PlanException.class, () -> read(junk, Map.of())).getMessage().contains("is not valid XML"));
        assertEquals(dir.resolve("missing.jmx") + " does not exist: give the path of a .jmx file, e.g. plans/quickstart.jmx",
                assertThrows(PlanException.class, () -> read(dir.resolve("missing.jmx"), Map.of())).getMessage());
    }

    @Test
    void propertyWithoutDefaultIsOneAsInJMeter() throws Exception {
        LoadEstimate plan = read(plan(threadGroup("${__P(threads)}", "1", raw(""))), Map.of());
        assertEquals(1, plan.load().connections().getAsLong());
    }

    private static String virtualUsers(String users, String hold, String samplers) {
        return """
                <io.stampede.threads.VirtualUserThreadGroup guiclass="io.stampede.threads.gui.VirtualUserThreadGroupGui"
                    testclass="io.stampede.threads.VirtualUserThreadGroup" testname="vu" enabled="true">
                  <elementProp name="ThreadGroup.main_controller" elementType="LoopController" testclass="LoopController">
                    <stringProp name="LoopController.loops">-1</stringProp>
                  </elementProp>
                  <stringProp name="ThreadGroup.num_threads">%s</stringProp>
                  <stringProp name="ThreadGroup.ramp_time">100</stringProp>
                  <stringProp name="VirtualUserThreadGroup.hold">%s</stringProp>
                </io.stampede.threads.VirtualUserThreadGroup>
                <hashTree>%s</hashTree>
                """.formatted(users, hold, samplers);
    }

    @Test
    void virtualUsersEachKeepAConnectionUnlessTheEngineSharesAPool() throws Exception {
        Path p = plan(virtualUsers("${__P(users,100000)}", "120", raw("")));
        LoadEstimate own = read(p, Map.of());
        assertEquals(100_000, own.load().connections().getAsLong());
        assertTrue(own.load().basis().get(0).contains("100000 virtual users, 1 HTTP sampler(s), keep-alive"),
                own.load().basis().toString());
        assertTrue(own.load().basis().toString().contains("-J stampede.connection_sharing=engine shares a pool"),
                own.load().basis().toString());
        LoadEstimate shared = read(p, Map.of("stampede.connection_sharing", "engine", "stampede.pool_size", "500"));
        assertEquals(500, shared.load().connections().getAsLong());
        assertTrue(shared.load().basis().toString().contains("at most 500 per target (stampede.pool_size)"),
                shared.load().basis().toString());
        assertEquals(1000, read(p, Map.of("stampede.connection_sharing", "engine")).load().connections().getAsLong());
        assertEquals(20, read(p, Map.of("users", "20", "stampede.connection_sharing", "engine"))
                .load().connections().getAsLong());
    }

    @Test
    void virtualUsersAreCountedForTheHeap() throws Exception {
        Path p = plan(virtualUsers("${__P(users,100000)}", "120", raw("")) + threadGroup("7", "1", raw("")));
        JmxTree tree = JmxTree.parse(p);
        assertEquals(100_000, LoadEstimate.virtualUsers(tree, Map.of()), "the OS-thread group's 7 are not counted");
        assertEquals(20, LoadEstimate.virtualUsers(tree, Map.of("users", "20")));
        assertEquals(0, LoadEstimate.virtualUsers(JmxTree.parse(plan(threadGroup("7", "1", raw("")))), Map.of()));
    }

    @Test
    void aPoolOfNoConnectionsIsRefusedNamingTheProperty() throws Exception {
        Path p = plan(virtualUsers("10", "0", raw("")));
        for (String bad : new String[] {"0", "-5", "many"}) {
            PlanException e = assertThrows(PlanException.class, () -> read(p,
                    Map.of("stampede.connection_sharing", "engine", "stampede.pool_size", bad)));
            assertTrue(e.getMessage().startsWith("stampede.pool_size=" + bad + ": give the most connections"),
                    e.getMessage());
        }
        PlanException e = assertThrows(PlanException.class, () -> read(p,
                Map.of("stampede.connection_sharing", "global")));
        assertTrue(e.getMessage().startsWith("stampede.connection_sharing=global: give thread"), e.getMessage());
    }
}
