/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.names.PluginNames;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.util.JMeterUtils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What an engine spools for `stampede server --metrics`: each sample once, in JTL rows the CLI reads. */
class EngineSampleSpoolTest {

    @TempDir
    Path dir;

    @BeforeAll
    static void jmeterProperties() throws IOException {
        JMeterProperties.loadIfMissing();
    }

    @AfterEach
    void forget() {
        JMeterUtils.getJMeterProperties().remove(PluginNames.ENGINE_SAMPLES_DIR);
    }

    private static SampleEvent sample(String label, boolean ok) {
        SampleResult r = new SampleResult();
        r.setSampleLabel(label);
        r.setSuccessful(ok);
        r.setResponseCode(ok ? "200" : "404");
        r.setResponseMessage(ok ? "OK" : "Not Found");
        r.setAllThreads(3);
        return new SampleEvent(r, "Users");
    }

    private List<Path> files(String suffix) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.toString().endsWith(suffix)).sorted().toList();
        }
    }

    @Test
    void twoListenersSendersSpoolEachSampleOnce() throws Exception {
        JMeterUtils.setProperty(PluginNames.ENGINE_SAMPLES_DIR, dir.toString());
        CompactSampleSenderTest.Controller controller = new CompactSampleSenderTest.Controller(0);
        // the plan's own result listener and the run's JTL each get a sender; JMeter hands both the same event
        CompactSampleSender first = new CompactSampleSender(controller).startOnEngine();
        CompactSampleSender second = new CompactSampleSender(controller).startOnEngine();
        for (int i = 0; i < 10; i++) {
            SampleEvent e = sample("item, " + i, i % 3 != 0);
            first.sampleOccurred(e);
            second.sampleOccurred(e);
        }
        first.testEnded("engine-1");
        second.testEnded("engine-1");

        List<Path> rows = files(EngineSampleSpool.ROWS);
        assertEquals(1, rows.size(), "one stream holds the rows: " + rows);
        List<String> lines = Files.readAllLines(rows.get(0));
        // then the sample variables, if this JVM's JMeter has any (sample_variables)
        assertTrue(lines.get(0).startsWith("timeStamp,elapsed,label,responseCode,responseMessage,success,grpThreads,"
                + "allThreads"), lines.get(0));
        assertEquals(11, lines.size(), "the header and each sample once: " + lines);
        assertTrue(lines.get(1).matches("\\d+,0,\"item, 0\",404,Not Found,false,0,3(,.*)?"), lines.get(1));
        assertEquals(2, files(EngineSampleSpool.END).size(), "both streams marked ended, the empty one too");
    }

    @Test
    void filesRollOverAndTheEndIsMarkedLast() throws Exception {
        EngineSampleSpool spool = new EngineSampleSpool(dir, "s1", 2);
        for (int i = 0; i < 5; i++) {
            spool.write(sample("l" + i, true));
        }
        spool.flush();
        assertEquals(List.of(dir.resolve("s1-000001.jtl"), dir.resolve("s1-000002.jtl"), dir.resolve("s1-000003.jtl")),
                files(EngineSampleSpool.ROWS));
        assertEquals(List.of(), files(EngineSampleSpool.END), "not ended yet");
        assertEquals(3, Files.readAllLines(dir.resolve("s1-000001.jtl")).size(), "a header in every file");
        spool.close();
        assertEquals(List.of(dir.resolve("s1.end")), files(EngineSampleSpool.END));
        spool.write(sample("late", true));
        List<String> all = new ArrayList<>();
        for (Path p : files(EngineSampleSpool.ROWS)) {
            all.addAll(Files.readAllLines(p).subList(1, Files.readAllLines(p).size()));
        }
        assertEquals(5, all.size(), "nothing after the end: " + all);
    }
}
