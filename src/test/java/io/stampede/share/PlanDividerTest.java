/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.share;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.names.PluginNames;
import io.stampede.plan.JmxTree;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;

class PlanDividerTest {

    @TempDir
    Path dir;

    private Path plan(String elements) throws Exception {
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
                """ + elements + """
                    </hashTree>
                  </hashTree>
                </jmeterTestPlan>
                """);
        return p;
    }

    private static String element(String type, String name, String props, String children) {
        String tag = type;
        return "<" + tag + " testclass=\"" + type + "\" testname=\"" + name + "\" enabled=\"true\">" + props + "</"
                + tag + "><hashTree>" + children + "</hashTree>";
    }

    private static String prop(String name, String value) {
        return "<stringProp name=\"" + name + "\">" + value + "</stringProp>";
    }

    /** The field of the element named {@code name} in the plan each share would load, for shares 1..n. */
    private List<String> shares(Path plan, Map<String, String> props, int n, String name, String field)
            throws Exception {
        List<String> out = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            Path results = Files.createDirectories(dir.resolve("results-" + i + "-" + field.hashCode()));
            Path written = PlanDivider.divide(plan, props, new Share(i, n)).write(results);
            try {
                out.add(value(JmxTree.parse(written).top(), name, field));
            } finally {
                Files.delete(written);
            }
        }
        return out;
    }

    private static String value(Element hashTree, String name, String field) {
        for (JmxTree.Entry e : JmxTree.children(hashTree)) {
            if (e.name().equals(name)) {
                Element p = PlanFields.prop(e.element(), field);
                if (p.getTagName().equals("doubleProp")) {
                    return JmxTree.elements(p).get(1).getTextContent();
                }
                return p.getTextContent();
            }
            if (e.children() != null) {
                String v = value(e.children(), name, field);
                if (v != null) {
                    return v;
                }
            }
        }
        return null;
    }

    @Test
    void aThreadGroupsUsersAreDividedWithTheRemainderSpread() throws Exception {
        Path p = plan(element("ThreadGroup", "Users", prop("ThreadGroup.num_threads", "${__P(threads,10)}"), ""));
        assertEquals(List.of("334", "333", "333"), shares(p, Map.of("threads", "1000"), 3, "Users",
                "ThreadGroup.num_threads"));
        assertEquals(List.of("4", "3", "3"), shares(p, Map.of(), 3, "Users", "ThreadGroup.num_threads"));
    }

    @Test
    void theTestPlansVariablesAreEvaluatedFirst() throws Exception {
        Path p = plan(element("ThreadGroup", "Users", prop("ThreadGroup.num_threads", "${users}"), ""));
        assertEquals(List.of("8", "8", "7", "7"), shares(p, Map.of(), 4, "Users", "ThreadGroup.num_threads"));
    }

    @Test
    void steppingDividesTheTotalAndEveryStep() throws Exception {
        Path p = plan(element(DivisionRules.STEPPING, "Steps", prop("ThreadGroup.num_threads", "100")
                + prop("Start users count", "10") + prop("Start users count burst", "5")
                + prop("Stop users count", "7") + prop("Start users period", "30"), ""));
        assertEquals(List.of("34", "33", "33"), shares(p, Map.of(), 3, "Steps", "ThreadGroup.num_threads"));
        assertEquals(List.of("4", "3", "3"), shares(p, Map.of(), 3, "Steps", "Start users count"));
        assertEquals(List.of("2", "2", "1"), shares(p, Map.of(), 3, "Steps", "Start users count burst"));
        assertEquals(List.of("3", "2", "2"), shares(p, Map.of(), 3, "Steps", "Stop users count"));
        assertEquals(List.of("30", "30", "30"), shares(p, Map.of(), 3, "Steps", "Start users period"));
    }

    @Test
    void concurrencyDividesItsTargetLevel() throws Exception {
        Path p = plan(element(DivisionRules.CONCURRENCY, "C", prop("TargetLevel", "${__P(threads,100)}")
                + prop("RampUp", "5"), ""));
        assertEquals(List.of("51", "50"), shares(p, Map.of("threads", "101"), 2, "C", "TargetLevel"));
        assertEquals(List.of("5", "5"), shares(p, Map.of(), 2, "C", "RampUp"));
    }

    @Test
    void arrivalsDivideTheRateAndTheLimits() throws Exception {
        Path p = plan(element(DivisionRules.ARRIVALS, "A", prop("TargetLevel", "100") + prop("ConcurrencyLimit", "50")
                + prop("ArrivalsLimit", ""), ""));
        assertEquals(List.of("33.333334", "33.333333", "33.333333"), shares(p, Map.of(), 3, "A", "TargetLevel"));
        assertEquals(List.of("17", "17", "16"), shares(p, Map.of(), 3, "A", "ConcurrencyLimit"));
        assertEquals(List.of("", "", ""), shares(p, Map.of(), 3, "A", "ArrivalsLimit"));
    }

    @Test
    void virtualUsersAreDivided() throws Exception {
        Path p = plan(element(DivisionRules.VIRTUAL_USERS, "V", prop("ThreadGroup.num_threads", "100000"), ""));
        assertEquals(List.of("33334", "33333", "33333"), shares(p, Map.of(), 3, "V", "ThreadGroup.num_threads"));
    }

    @Test
    void aSharedConstantThroughputTimerIsDividedAPerThreadOneIsNot() throws Exception {
        String shared = "<intProp name=\"calcMode\">2</intProp><doubleProp><name>throughput</name><value>6000.0</value>"
                + "<savedValue>0.0</savedValue></doubleProp>";
        String perThread = "<intProp name=\"calcMode\">0</intProp><doubleProp><name>throughput</name>"
                + "<value>60.0</value><savedValue>0.0</savedValue></doubleProp>";
        Path p = plan(element("ThreadGroup", "Users", prop("ThreadGroup.num_threads", "9"),
                element("ConstantThroughputTimer", "All", shared, "")
                        + element("ConstantThroughputTimer", "Mine", perThread, "")));
        assertEquals(List.of("1500", "1500", "1500", "1500"), shares(p, Map.of(), 4, "All", "throughput"));
        assertEquals(List.of("2000", "2000", "2000"), shares(p, Map.of(), 3, "All", "throughput"));
        assertEquals(List.of("60.0", "60.0", "60.0"), shares(p, Map.of(), 3, "Mine", "throughput"));
        assertTrue(PlanDivider.divide(p, Map.of(), new Share(1, 3)).notes().stream()
                .anyMatch(n -> n.contains("'Mine'") && n.contains("this thread only")));
    }

    @Test
    void preciseThroughputAndSynchronizingTimersAreDivided() throws Exception {
        Path p = plan(element("ThreadGroup", "Users", prop("ThreadGroup.num_threads", "9"),
                element("org.apache.jmeter.timers.poissonarrivals.PreciseThroughputTimer", "P",
                        prop("throughput", "100"), "") + element("SyncTimer", "S", prop("groupSize", "10"), "")));
        assertEquals(List.of("33.333334", "33.333333", "33.333333"), shares(p, Map.of(), 3, "P", "throughput"));
        assertEquals(List.of("4", "3", "3"), shares(p, Map.of(), 3, "S", "groupSize"));
    }

    @Test
    void setUpGroupsRunWholeInEveryShare() throws Exception {
        Path p = plan(element("SetupThreadGroup", "Login", prop("ThreadGroup.num_threads", "1"), ""));
        assertEquals(List.of("1", "1"), shares(p, Map.of(), 2, "Login", "ThreadGroup.num_threads"));
        assertTrue(PlanDivider.divide(p, Map.of(), new Share(1, 2)).notes().get(0).contains("runs whole"));
    }

    @Test
    void oneUserWithManyStampedeConnectionsDividesTheConnectionsAndRate() throws Exception {
        String sampler = element("io.stampede.sampler.HttpSampler", "GET", prop(DivisionRules.CONNECTIONS, "850")
                + prop(DivisionRules.TARGET_RATE, "5000"), "");
        Path p = plan(element("ThreadGroup", "Users", prop("ThreadGroup.num_threads", "1"), sampler));
        assertEquals(List.of("1", "1", "1"), shares(p, Map.of(), 3, "Users", "ThreadGroup.num_threads"));
        assertEquals(List.of("284", "283", "283"), shares(p, Map.of(), 3, "GET", DivisionRules.CONNECTIONS));
        assertEquals(List.of("1666.666667", "1666.666667", "1666.666666"),
                shares(p, Map.of(), 3, "GET", DivisionRules.TARGET_RATE));
        // with enough users the users are divided and each keeps its connections
        Path six = plan(element("ThreadGroup", "Users", prop("ThreadGroup.num_threads", "6"), sampler));
        assertEquals(List.of("2", "2", "2"), shares(six, Map.of(), 3, "Users", "ThreadGroup.num_threads"));
        assertEquals(List.of("850", "850", "850"), shares(six, Map.of(), 3, "GET", DivisionRules.CONNECTIONS));
    }

    @Test
    void tooFewUsersWithOtherSamplersAreRefused() throws Exception {
        String samplers = element("io.stampede.sampler.HttpSampler", "GET", prop(DivisionRules.CONNECTIONS, "850"), "")
                + element("HTTPSamplerProxy", "stock", "", "");
        Path p = plan(element("ThreadGroup", "Users", prop("ThreadGroup.num_threads", "2"), samplers));
        ShareRefusal e = assertThrows(ShareRefusal.class, () -> PlanDivider.divide(p, Map.of(), new Share(1, 3)));
        assertTrue(e.getMessage().contains("ThreadGroup 'Users' cannot be divided into 3 shares"), e.getMessage());
        assertTrue(e.getMessage().contains("give at least 3 users"), e.getMessage());
    }

    @Test
    void whatCannotBeDividedIsNamedWithTheReason() throws Exception {
        record Case(String element, String expected) {}
        for (Case c : List.of(
                new Case(element("com.blazemeter.jmeter.threads.arrivals.FreeFormArrivalsThreadGroup", "Free", "", ""),
                        "FreeFormArrivalsThreadGroup 'Free' cannot be divided into 2 shares: Stampede divides"),
                new Case(element("kg.apc.jmeter.threads.UltimateThreadGroup", "Ultimate", "", ""),
                        "UltimateThreadGroup 'Ultimate' cannot be divided"),
                new Case(element("ThreadGroup", "U", prop("ThreadGroup.num_threads", "${__P(threads,10)}"),
                        element("kg.apc.jmeter.timers.VariableThroughputTimer", "Shape", "", "")),
                        "VariableThroughputTimer 'Shape' cannot be divided into 2 shares: a Throughput Shaping"),
                new Case(element("ThreadGroup", "R", prop("ThreadGroup.num_threads", "${__Random(1,9)}"), ""),
                        "ThreadGroup 'R' cannot be divided into 2 shares: cannot be divided before the run"),
                new Case(element("ThreadGroup", "N", prop("ThreadGroup.num_threads", "many"), ""),
                        "ThreadGroup.num_threads = 'many' is not a whole number"))) {
            Path p = plan(c.element());
            ShareRefusal e = assertThrows(ShareRefusal.class, () -> PlanDivider.divide(p, Map.of(), new Share(1, 2)));
            assertTrue(e.getMessage().startsWith("plan.jmx: "), e.getMessage());
            assertTrue(e.getMessage().contains(c.expected()), e.getMessage());
        }
    }

    @Test
    void csvRowsArePartitionedWithTheHeaderInEveryShare() throws Exception {
        StringBuilder csv = new StringBuilder("user,password\n");
        for (int i = 1; i <= 10; i++) {
            csv.append("user").append(i).append(",secret").append(i).append("\r\n");
        }
        Files.writeString(dir.resolve("users.csv"), csv + "\n");
        Path p = plan(element("ThreadGroup", "Users", prop("ThreadGroup.num_threads", "3"),
                element("CSVDataSet", "Logins", prop("filename", "users.csv") + prop("variableNames", ""), "")));
        Set<String> seen = new HashSet<>();
        List<Integer> sizes = new ArrayList<>();
        for (int i = 1; i <= 3; i++) {
            Path results = Files.createDirectories(dir.resolve("r" + i));
            Path written = PlanDivider.divide(p, Map.of(), new Share(i, 3)).write(results);
            Path rows = Path.of(value(JmxTree.parse(written).top(), "Logins", "filename"));
            Files.delete(written);
            assertTrue(rows.startsWith(results.resolve(DividedPlan.DATA_FOLDER)), rows.toString());
            List<String> lines = Files.readAllLines(rows);
            assertEquals("user,password", lines.get(0));
            sizes.add(lines.size() - 1);
            for (String row : lines.subList(1, lines.size())) {
                assertTrue(seen.add(row), row + " is in two shares");
            }
        }
        assertEquals(List.of(4, 3, 3), sizes);
        assertEquals(10, seen.size());
    }

    @Test
    void quotedRowsSpanningLinesStayWhole() {
        CsvRows rows = CsvRows.of("a,\"b\nc\"\nd,e\n\n", 0, true);
        assertEquals(List.of("a,\"b\nc\"\n", "d,e\n"), rows.rows());
        assertEquals("a,\"b\nc\"\n", rows.shareOf(new Share(1, 2)));
        assertEquals(List.of("x\n"), CsvRows.of("h\nx", 1, false).rows());
    }

    @Test
    void aCsvWithFewerRowsThanSharesIsRefused() throws Exception {
        Files.writeString(dir.resolve("two.csv"), "a\nb\n");
        Path p = plan(element("ThreadGroup", "Users", prop("ThreadGroup.num_threads", "3"),
                element("CSVDataSet", "Logins", prop("filename", "two.csv") + prop("variableNames", "name"), "")));
        ShareRefusal e = assertThrows(ShareRefusal.class, () -> PlanDivider.divide(p, Map.of(), new Share(1, 3)));
        assertTrue(e.getMessage().contains("CSVDataSet 'Logins' cannot be divided into 3 shares: two.csv has 2 rows"),
                e.getMessage());
        Path missing = plan(element("CSVDataSet", "Gone", prop("filename", "none.csv"), ""));
        e = assertThrows(ShareRefusal.class, () -> PlanDivider.divide(missing, Map.of(), new Share(1, 3)));
        assertTrue(e.getMessage().contains("cannot be read"), e.getMessage());
        assertFalse(Files.exists(dir.resolve("r1")));
    }

    @Test
    void forRemoteEnginesThePlanHoldsEveryEnginesShare() throws Exception {
        Files.writeString(dir.resolve("users.csv"), "a\nb\nc\n");
        Path p = plan(element("ThreadGroup", "Users", prop("ThreadGroup.num_threads", "1000"),
                element("CSVDataSet", "Logins", prop("filename", "users.csv") + prop("variableNames", "u"), "")
                        + element("org.apache.jmeter.timers.poissonarrivals.PreciseThroughputTimer", "P",
                                prop("throughput", "100"), "")));
        Path results = Files.createDirectories(dir.resolve("controller"));
        DividedPlan divided = PlanDivider.perEngine(p, Map.of(), 3);
        assertTrue(divided.share().isEmpty());
        Path written = divided.write(results);
        Element top = JmxTree.parse(written).top();
        Files.delete(written);
        assertEquals("${__stampedeShare(334,333,333)}", value(top, "Users", "ThreadGroup.num_threads"));
        assertEquals("${__stampedeShare(33.333334,33.333333,33.333333)}", value(top, "P", "throughput"));
        String files = value(top, "Logins", "filename");
        Path data = results.resolve(DividedPlan.DATA_FOLDER).toAbsolutePath();
        assertEquals("${__stampedeShare(" + data.resolve("1-i1of3-users.csv") + "," + data.resolve("1-i2of3-users.csv")
                + "," + data.resolve("1-i3of3-users.csv") + ")}", files);
        assertEquals("c\n", Files.readString(data.resolve("1-i3of3-users.csv")));
        // after the injector monitor's start, the first element under the test plan: each engine names its threads by
        // its share (i2of3-Users 1-7)
        List<JmxTree.Entry> first = JmxTree.children(JmxTree.children(top).get(0).children());
        assertEquals(PluginNames.INJECTOR_MONITOR_CLASS, first.get(0).type());
        JmxTree.Entry names = first.get(1);
        assertEquals(PluginNames.SHARE_THREAD_NAMES_CLASS, names.type());
        assertEquals("3", JmxTree.text(JmxTree.prop(names.element(), PluginNames.SHARE_THREAD_NAMES_SHARES)));
    }

    @Test
    void anInjectorsShareNamesItsThreadsWithoutAnElement() throws Exception {
        Path p = plan(element("ThreadGroup", "Users", prop("ThreadGroup.num_threads", "10"), ""));
        Path written = PlanDivider.divide(p, Map.of(), new Share(2, 3)).write(Files.createDirectories(dir.resolve("r")));
        String xml = Files.readString(written);
        Files.delete(written);
        assertFalse(xml.contains(PluginNames.SHARE_THREAD_NAMES_CLASS), xml);
    }

    @Test
    void aWholePlanIsLoadedAsACopyBesideItThatStartsTheInjectorMonitorFirst() throws Exception {
        Path p = plan(element("ThreadGroup", "Users", prop("ThreadGroup.num_threads", "10"), ""));
        String original = Files.readString(p);
        Path results = Files.createDirectories(dir.resolve("whole"));
        Path written = LoadedPlan.whole(p, results);
        try {
            assertEquals(p.getParent(), written.getParent(), "beside the plan, so its relative paths hold");
            assertTrue(written.getFileName().toString().startsWith(".plan.run."), written.toString());
            Element top = JmxTree.parse(written).top();
            List<JmxTree.Entry> first = JmxTree.children(JmxTree.children(top).get(0).children());
            assertEquals(PluginNames.INJECTOR_MONITOR_CLASS, first.get(0).type());
            assertEquals(p.getFileName().toString(),
                    value(top, "Stampede: injector monitor", PluginNames.INJECTOR_MONITOR_PLAN_NAME),
                    "__TestPlanName gets the user's plan name back");
            assertEquals("10", value(top, "Users", "ThreadGroup.num_threads"));
        } finally {
            Files.delete(written);
        }
        assertEquals(original, Files.readString(p), "the plan itself is unchanged");
    }

    @Test
    void aRunRemovesTheCopiesOfKilledRunsOfThePlanAndLeavesThoseOfRunsStillGoing() throws Exception {
        Path p = plan(element("ThreadGroup", "Users", prop("ThreadGroup.num_threads", "10"), ""));
        long live = ProcessHandle.current().parent().orElseThrow().pid();
        Path killed = Files.writeString(p.resolveSibling(".plan.run.999999999.jmx"), "<jmeterTestPlan/>");
        Path killedShare = Files.writeString(p.resolveSibling(".plan.share-of-3.999999998.jmx"), "<jmeterTestPlan/>");
        Path going = Files.writeString(p.resolveSibling(".plan.run." + live + ".jmx"), "<jmeterTestPlan/>");
        Path other = Files.writeString(p.resolveSibling(".other.run.999999999.jmx"), "<jmeterTestPlan/>");
        Path written = LoadedPlan.whole(p, Files.createDirectories(dir.resolve("stale")));
        Files.delete(written);
        assertFalse(Files.exists(killed), "the copy of a run whose process ended");
        assertFalse(Files.exists(killedShare), "and of a share whose process ended");
        assertTrue(Files.exists(going), "a run still going keeps its copy");
        assertTrue(Files.exists(other), "another plan's copies are its own runs' business");
    }

    @Test
    void aShareWithAStartTimeHoldsItsThreadGroupsUntilThen() throws Exception {
        Path p = plan(element("ThreadGroup", "Users", prop("ThreadGroup.num_threads", "10"), ""));
        DividedPlan divided = PlanDivider.divide(p, Map.of(), new Share(1, 2));
        divided.startAt(Instant.parse("2026-11-28T09:30:00Z"));
        Path written = divided.write(Files.createDirectories(dir.resolve("r")));
        Element top = JmxTree.parse(written).top();
        Files.delete(written);
        // first under the test plan, the monitor's start and then the wait: their test starts run before any thread
        // group starts, and the monitor runs while the share waits
        List<JmxTree.Entry> first = JmxTree.children(JmxTree.children(top).get(0).children());
        assertEquals(PluginNames.INJECTOR_MONITOR_CLASS, first.get(0).type());
        JmxTree.Entry start = first.get(1);
        assertEquals(PluginNames.START_AT_CLASS, start.type());
        Element millis = JmxTree.prop(start.element(), PluginNames.START_AT_EPOCH_MILLIS);
        assertEquals("longProp", millis.getTagName());
        assertEquals("1795858200000", JmxTree.text(millis));
        assertEquals("5", value(top, "Users", "ThreadGroup.num_threads"));
    }
}
