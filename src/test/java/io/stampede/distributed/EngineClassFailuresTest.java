/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.distributed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.plugins.PluginIndex;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The controller's console after engines refused the plan (as JMeter 5.6.3 prints it): each failure paired with the
 * engine it came from, and the message naming what provides each class and how to give the engines the plugins.
 */
class EngineClassFailuresTest {

    private static final String DUMMY = "kg.apc.jmeter.samplers.DummySampler";
    private static final String TST = "kg.apc.jmeter.timers.VariableThroughputTimer";

    private static List<String> failure(String className) {
        return List.of("Error in rconfigure() method java.rmi.ServerException: RemoteException occurred in server"
                        + " thread; nested exception is: ",
                "\tjava.rmi.UnmarshalException: error unmarshalling arguments; nested exception is: ",
                "\tjava.lang.ClassNotFoundException: " + className
                        + " (no security manager: RMI class loader disabled)");
    }

    @SafeVarargs
    private static List<String> console(List<String> started, List<String> notStarted, List<String>... failures) {
        List<String> out = new ArrayList<>(List.of("Created the tree successfully using /p/plan.jmx",
                "Configuring remote engine: 127.0.0.1:21099", "Configuring remote engine: 127.0.0.1:21199",
                "Starting distributed test with remote engines: [127.0.0.1:21199, 127.0.0.1:21099] @ 2026"));
        for (List<String> f : failures) {
            out.addAll(f);
        }
        out.add("Remote engines have been started:" + started);
        out.add("The following remote engines have not started:" + notStarted);
        out.add("Waiting for possible Shutdown/StopTestNow/HeapDump/ThreadDump message on port 4445");
        return out;
    }

    @Test
    void eachFailurePairsWithTheEngineThatDidNotStartInTheSameOrder() {
        List<EngineClassFailures.Failure> f = EngineClassFailures.read(console(List.of(),
                List.of("127.0.0.1:21199", "127.0.0.1:21099"), failure(DUMMY), failure(TST)));
        assertEquals(List.of(new EngineClassFailures.Failure("127.0.0.1:21199", DUMMY),
                new EngineClassFailures.Failure("127.0.0.1:21099", TST)), f);
    }

    @Test
    void anEngineThatStartedIsNotListed() {
        List<EngineClassFailures.Failure> f = EngineClassFailures.read(console(List.of("127.0.0.1:21199"),
                List.of("127.0.0.1:21099"), failure(DUMMY)));
        assertEquals(List.of(new EngineClassFailures.Failure("127.0.0.1:21099", DUMMY)), f);
    }

    @Test
    void aRunWhoseEnginesAllStartedHasNone() {
        assertEquals(List.of(), EngineClassFailures.read(console(List.of("127.0.0.1:21199", "127.0.0.1:21099"),
                List.of())));
    }

    @Test
    void anotherFailureIsNotAMissingClassButKeepsThePairing() {
        List<String> other = List.of("Error in rconfigure() method java.rmi.ConnectException: Connection refused to"
                + " host: 127.0.0.1; nested exception is: ", "\tjava.net.ConnectException: Connection refused");
        List<EngineClassFailures.Failure> f = EngineClassFailures.read(console(List.of(),
                List.of("127.0.0.1:21199", "127.0.0.1:21099"), other, failure(TST)));
        assertEquals(List.of(new EngineClassFailures.Failure("127.0.0.1:21099", TST)), f);
    }

    @Test
    void listsThatDoNotPairNameTheEnginesThatDidNotStart() {
        List<EngineClassFailures.Failure> f = EngineClassFailures.read(console(List.of(),
                List.of("127.0.0.1:21199", "127.0.0.1:21099"), failure(DUMMY)));
        assertEquals(List.of(new EngineClassFailures.Failure("one of 127.0.0.1:21199, 127.0.0.1:21099", DUMMY)), f);
    }

    @Test
    void theMessageNamesEachEngineClassArtifactAndTheCommandsThatFixIt() {
        String m = EngineClassFailures.message(List.of(new EngineClassFailures.Failure("127.0.0.1:21199", DUMMY),
                new EngineClassFailures.Failure("127.0.0.1:21099", TST)), PluginIndex.bundled(), "plans/p.jmx");
        assertTrue(m.startsWith("stampede run: 2 engines refused the plan"), m);
        assertTrue(m.contains("  127.0.0.1:21199  " + DUMMY
                + "  provided by kg.apc:jmeter-plugins-dummy:0.4 (plugin jpgc-dummy)\n"), m);
        assertTrue(m.contains("  127.0.0.1:21099  " + TST
                + "  provided by kg.apc:jmeter-plugins-tst:2.5 (plugin jpgc-tst)\n"), m);
        assertTrue(m.contains("`stampede server --plan plans/p.jmx`"), m);
        assertTrue(m.contains("`stampede plugins add jpgc-dummy jpgc-tst`"), m);
        assertFalse(m.contains("lib/ext"), m);
    }

    @Test
    void aClassNoCatalogueArtifactProvidesSaysWhereItsJarGoes() {
        String m = EngineClassFailures.message(List.of(new EngineClassFailures.Failure("10.0.0.5:1099",
                "com.example.NoSuchSampler")), PluginIndex.bundled(), "p.jmx");
        assertTrue(m.startsWith("stampede run: an engine refused the plan"), m);
        assertTrue(m.contains("  10.0.0.5:1099  com.example.NoSuchSampler  no artifact in Stampede's catalogue"
                + " provides it\n"), m);
        assertFalse(m.contains("plugins add"), m);
        assertTrue(m.contains("lib/ext"), m);
    }
}
