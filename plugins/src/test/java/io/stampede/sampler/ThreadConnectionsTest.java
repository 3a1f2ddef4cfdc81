/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sampler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.engine.tls.Tls;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.junit.jupiter.api.Test;

class ThreadConnectionsTest extends SamplerTestSupport {

    @Test
    void theThreadsConnectionsOutliveJMetersPerSampleCleanup() {
        ThreadConnections before = ThreadConnections.ofCurrentThread();
        // JMeterThread does this after every sample.
        JMeterContextService.getContext().cleanAfterSample();
        assertSame(before, ThreadConnections.ofCurrentThread());
    }

    @Test
    void bothSamplersOfOneThreadShareItsConnectionAndThreadFinishedClosesIt() throws Exception {
        try (TestServer server = TestServer.answering(TestServer.OK)) {
            HttpRawSampler a = raw(server.port(), GET);
            HttpRawSampler b = raw(server.port(), GET);
            for (int i = 0; i < 3; i++) {
                for (HttpRawSampler s : new HttpRawSampler[] {a, b}) {
                    SampleResult r = s.sample(null);
                    assertTrue(r.isSuccessful(), r.getResponseMessage());
                    JMeterContextService.getContext().cleanAfterSample();
                }
            }
            assertEquals(1, server.connections.get(), "one connection for the thread, shared by both samplers");
            a.threadFinished();
            SampleResult again = b.sample(null);
            assertTrue(again.isSuccessful());
            assertTrue(again.getConnectTime() >= 1, "threadFinished closed the thread's connection");
            assertEquals(2, server.connections.get());
        }
    }

    @Test
    void theThreadDoesItsOwnIoOnPlainTargetsAndLeavesTlsToTheEngine() {
        ThreadConnections tc = ThreadConnections.ofCurrentThread();
        boolean engineMode = IoMode.fromJMeterProperties() == IoMode.ENGINE;
        assertEquals(!engineMode, tc.ownsIo(new Target("127.0.0.1", 80, null)));
        assertFalse(tc.ownsIo(new Target("127.0.0.1", 443, new Tls("localhost", 443, true))), "TLS stays on the event loops");
    }

    @Test
    void aDiscardedTargetGetsNewConnectionsAndTheOthersAreKept() throws Exception {
        ThreadConnections tc = ThreadConnections.create();
        Target failed = new Target("127.0.0.1", 1, null);
        Target kept = new Target("127.0.0.1", 2, null);
        var first = tc.own(failed);
        var other = tc.own(kept);
        var onLoop = tc.get(failed, 1000);
        tc.discard(failed);
        assertTrue(first != tc.own(failed), "a new own-I/O connection after discard");
        assertTrue(onLoop != tc.get(failed, 1000), "a new event-loop connection after discard");
        assertSame(other, tc.own(kept), "other targets keep theirs");
        tc.closeAll();
    }
}
