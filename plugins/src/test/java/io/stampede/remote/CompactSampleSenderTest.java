/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.names.PluginNames;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.apache.jmeter.samplers.RemoteSampleListener;
import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.util.JMeterUtils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The sender as an engine runs it: built, shipped by Java serialization as the controller ships it, then fed by
 * several sampling threads; the controller's side serializes every batch as RMI does.
 */
class CompactSampleSenderTest {

    @BeforeAll
    static void jmeterProperties() throws IOException {
        JMeterProperties.loadIfMissing();
    }

    @AfterEach
    void defaults() {
        JMeterUtils.getJMeterProperties().remove(PluginNames.SENDER_QUEUE_SIZE);
        JMeterUtils.getJMeterProperties().remove(PluginNames.SENDER_BATCH_SIZE);
        JMeterUtils.getJMeterProperties().remove(PluginNames.SENDER_LINGER_MS);
        JMeterUtils.getJMeterProperties().remove(PluginNames.SENDER_QUEUE_WAIT_MS);
    }

    @Test
    void theModeNamesThisClass() {
        assertEquals(CompactSampleSender.class.getName(), PluginNames.COMPACT_SAMPLE_SENDER_CLASS);
    }

    @Test
    void everySampleReachesTheControllerBeforeTheEndOfTheTest() throws Exception {
        JMeterUtils.setProperty(PluginNames.SENDER_QUEUE_SIZE, "16");
        JMeterUtils.setProperty(PluginNames.SENDER_BATCH_SIZE, "50");
        Controller controller = new Controller(2);
        CompactSampleSender engine = shipped(new CompactSampleSender(controller));

        int threads = 4;
        int perThread = 2_500;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<?>> sampling = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            sampling.add(pool.submit(() -> {
                for (int i = 0; i < perThread; i++) {
                    SampleResult r = new SampleResult();
                    r.setSampleLabel(thread + "-" + i);
                    r.setSuccessful(true);
                    r.setResponseData("payload", "UTF-8");
                    engine.sampleOccurred(new SampleEvent(r, "Users"));
                }
                return null;
            }));
        }
        for (Future<?> f : sampling) {
            f.get(60, TimeUnit.SECONDS);
        }
        pool.shutdown();
        engine.testEnded("engine-1");

        assertEquals("engine-1", controller.endedBy);
        assertEquals(threads * perThread, controller.samplesAtEnd, "every sample arrived before the end was reported");
        assertEquals(threads * perThread, controller.labels.size(), "no sample twice");
        assertTrue(controller.largestBatch <= 50, "batches of at most " + 50 + ": " + controller.largestBatch);
        assertSame(SampleResult.class, controller.lastResultClass);
        assertEquals(0, controller.dataBytes, "response data stripped");
    }

    @Test
    void aLoneSampleIsSentAfterTheLingerTimeNotAtTheEnd() throws Exception {
        JMeterUtils.setProperty(PluginNames.SENDER_LINGER_MS, "100");
        Controller controller = new Controller(0);
        CompactSampleSender engine = shipped(new CompactSampleSender(controller));
        SampleResult r = new SampleResult();
        r.setSampleLabel("lone");
        engine.sampleOccurred(new SampleEvent(r, "Users"));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (controller.labels.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertEquals(Set.of("lone"), controller.labels, "sent without waiting for a full batch or the end");
        engine.testEnded("engine-1");
        assertEquals(1, controller.samplesAtEnd);
    }

    @Test
    void batchesFillWhileTheyLinger() throws Exception {
        JMeterUtils.setProperty(PluginNames.SENDER_LINGER_MS, "2000");
        JMeterUtils.setProperty(PluginNames.SENDER_BATCH_SIZE, "100");
        Controller controller = new Controller(0);
        CompactSampleSender engine = shipped(new CompactSampleSender(controller));
        for (int i = 0; i < 250; i++) {
            SampleResult r = new SampleResult();
            r.setSampleLabel("s" + i);
            engine.sampleOccurred(new SampleEvent(r, "Users"));
        }
        engine.testEnded("engine-1");
        assertEquals(250, controller.samplesAtEnd);
        assertEquals(List.of(100, 100, 50), controller.batchSizes, "full batches, then the rest at the end");
    }

    /**
     * A controller that stops answering (a stopped process): sampling threads wait for room at most the queue
     * wait, then drop and count; when it answers again the rest arrives, and sent + dropped is every sample.
     */
    @Test
    void aControllerThatStopsAnsweringNeverBlocksSamplingForLong() throws Exception {
        JMeterUtils.setProperty(PluginNames.SENDER_QUEUE_SIZE, "10");
        JMeterUtils.setProperty(PluginNames.SENDER_BATCH_SIZE, "5");
        JMeterUtils.setProperty(PluginNames.SENDER_LINGER_MS, "0");
        JMeterUtils.setProperty(PluginNames.SENDER_QUEUE_WAIT_MS, "50");
        CountDownLatch answering = new CountDownLatch(1);
        Controller controller = new Controller(0) {
            @Override
            public void processBatch(List<SampleEvent> samples) {
                try {
                    answering.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                super.processBatch(samples);
            }
        };
        CompactSampleSender engine = shipped(new CompactSampleSender(controller));
        long start = System.nanoTime();
        for (int i = 0; i < 2_000; i++) {
            SampleResult r = new SampleResult();
            r.setSampleLabel("s" + i);
            engine.sampleOccurred(new SampleEvent(r, "Users"));
        }
        long sampling = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue(sampling < 5_000, "2,000 samples took " + sampling + " ms: one wait, then dropped at once");
        answering.countDown();
        engine.testEnded("engine-1");
        assertEquals("engine-1", controller.endedBy);
        assertTrue(engine.dropped() >= 2_000 - 10 - 5, "dropped: " + engine.dropped());
        assertEquals(2_000, engine.sent() + engine.dropped(), "every sample sent or counted");
        assertEquals(engine.sent(), controller.labels.size());
    }

    /**
     * A call whose answer timed out (a stopped controller) went out whole: it may still be read, so it is neither sent
     * again (it could land twice) nor counted as dropped, but as unconfirmed; a call refused outright is retried.
     */
    @Test
    void aCallTheControllerDidNotAnswerIsUnconfirmedAndNotSentAgain() throws Exception {
        JMeterUtils.setProperty(PluginNames.SENDER_BATCH_SIZE, "10");
        JMeterUtils.setProperty(PluginNames.SENDER_LINGER_MS, "0");
        List<String> received = Collections.synchronizedList(new java.util.ArrayList<>());
        Controller stopped = new Controller(0) {
            @Override
            public void processBatch(List<SampleEvent> samples) {
                samples.forEach(e -> received.add(((OutgoingResult) e.getResult()).source().getSampleLabel()));
                CompactSampleSenderTest.<RuntimeException>sneak(new java.rmi.UnmarshalException(
                        "Error unmarshaling return header", new java.net.SocketTimeoutException("Read timed out")));
            }
        };
        CompactSampleSender engine = shipped(new CompactSampleSender(stopped));
        for (int i = 0; i < 10; i++) {
            SampleResult r = new SampleResult();
            r.setSampleLabel("late" + i);
            engine.sampleOccurred(new SampleEvent(r, "Users"));
        }
        engine.testEnded("engine-1");
        assertEquals(10, received.size(), "each sample sent once (a batch or more), never again: " + received);
        assertEquals(10, new HashSet<>(received).size(), "each sample sent once: " + received);
        assertEquals(10, engine.unconfirmed());
        assertEquals(0, engine.sent());
        assertEquals(0, engine.dropped());
        assertTrue(CompactSampleSender.unanswered(new java.rmi.UnmarshalException("x",
                new java.net.SocketTimeoutException())));
        assertFalse(CompactSampleSender.unanswered(new java.rmi.ConnectIOException("x",
                new java.net.SocketTimeoutException())), "a connection never made carried nothing");
        assertFalse(CompactSampleSender.unanswered(new java.rmi.UnmarshalException("filter status: REJECTED")));
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> void sneak(Throwable t) throws T {
        throw (T) t;
    }

    @Test
    void aFailedBatchIsSentOnceMoreAndAnyThrowableIsCounted() throws Exception {
        JMeterUtils.setProperty(PluginNames.SENDER_BATCH_SIZE, "10");
        JMeterUtils.setProperty(PluginNames.SENDER_LINGER_MS, "0");
        Set<String> failedOnce = Collections.synchronizedSet(new HashSet<>());
        Controller flaky = new Controller(0) {
            @Override
            public void processBatch(List<SampleEvent> samples) {
                List<String> labels = samples.stream().map(e -> ((OutgoingResult) e.getResult()).source()
                        .getSampleLabel()).toList();
                if (labels.stream().anyMatch(l -> l.startsWith("second"))) {
                    throw new Error("every time");
                }
                if (failedOnce.addAll(labels)) {
                    throw new IllegalStateException("once, and not a RemoteException");
                }
                super.processBatch(samples);
            }
        };
        CompactSampleSender engine = shipped(new CompactSampleSender(flaky));
        for (int i = 0; i < 10; i++) {
            SampleResult r = new SampleResult();
            r.setSampleLabel("first" + i);
            engine.sampleOccurred(new SampleEvent(r, "Users"));
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (engine.sent() < 10 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        for (int i = 0; i < 10; i++) {
            SampleResult r = new SampleResult();
            r.setSampleLabel("second" + i);
            engine.sampleOccurred(new SampleEvent(r, "Users"));
        }
        engine.testEnded("engine-1");
        assertEquals(10, engine.sent(), "the first batch arrived on its second try");
        assertEquals(10, engine.dropped(), "the second failed twice: counted, and the sender lived on to the end");
        assertEquals("engine-1", flaky.endedBy);
    }

    /** What the controller's JMeter does with a batch: RMI serializes it in the engine and rebuilds it here. */
    static class Controller implements RemoteSampleListener {
        private final long slowMillis;
        final Set<String> labels = Collections.synchronizedSet(new HashSet<>());
        volatile int samplesAtEnd = -1;
        volatile String endedBy;
        volatile int largestBatch;
        final List<Integer> batchSizes = Collections.synchronizedList(new ArrayList<>());
        volatile Class<?> lastResultClass;
        volatile long dataBytes;

        Controller(long slowMillis) {
            this.slowMillis = slowMillis;
        }

        @Override
        @SuppressWarnings("unchecked")
        public void processBatch(List<SampleEvent> samples) {
            try {
                List<SampleEvent> received = (List<SampleEvent>) ResultFormTest.deserialize(
                        ResultFormTest.serialize(new ArrayList<>(samples)));
                largestBatch = Math.max(largestBatch, received.size());
                batchSizes.add(received.size());
                for (SampleEvent e : received) {
                    labels.add(e.getResult().getSampleLabel());
                    lastResultClass = e.getResult().getClass();
                    dataBytes += e.getResult().getResponseData().length;
                }
                Thread.sleep(slowMillis);
            } catch (IOException | ClassNotFoundException e) {
                throw new AssertionError(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public void testEnded(String host) {
            samplesAtEnd = labels.size();
            endedBy = host;
        }

        @Override
        public void testStarted() {
        }

        @Override
        public void testStarted(String host) {
        }

        @Override
        public void testEnded() {
        }

        @Override
        public void sampleOccurred(SampleEvent e) {
            throw new AssertionError("samples travel in batches");
        }

        @Override
        public void sampleStarted(SampleEvent e) {
        }

        @Override
        public void sampleStopped(SampleEvent e) {
        }
    }

    /**
     * The controller builds the sender and JMeter ships it to the engine inside the plan; the listener stays
     * this JVM's object (in a real run it is an RMI stub), so only the sender's own state takes the trip.
     */
    private static CompactSampleSender shipped(CompactSampleSender built) {
        return built.startOnEngine();
    }
}
