/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.remote;

import io.stampede.names.PluginNames;
import java.io.ObjectStreamException;
import java.io.Serializable;
import java.net.SocketTimeoutException;
import java.rmi.RemoteException;
import java.rmi.UnmarshalException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.jmeter.samplers.AbstractSampleSender;
import org.apache.jmeter.samplers.RemoteSampleListener;
import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.apache.jmeter.util.JMeterUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends an engine's samples to the controller of a distributed run ({@code mode=io.stampede.remote.CompactSampleSender}):
 * <ul>
 * <li>from a thread of its own, so that no sampling thread (which may own thousands of connections) serializes a
 * batch or waits for the controller;</li>
 * <li>in the compact {@link ResultForm}, with response data stripped as JMeter's Stripped modes do;</li>
 * <li>and it reports the end of the test only after the last queued sample has reached the controller (JMeter
 * 5.6.3's AsynchSampleSender reports it first, so the last samples of a run can miss the JTL);</li>
 * <li>on an engine started with `stampede server --metrics`, each sample is also spooled once for the engine's own
 * metrics ({@link EngineSampleSpool}).</li>
 * </ul>
 * Nothing waits forever and nothing is lost unseen: a sampling thread waits for room in a full queue at most
 * {@value PluginNames#SENDER_QUEUE_WAIT_MS} (then its sample, and the next ones until there is room again, are counted as
 * dropped); a batch the controller did not take is sent once more, then counted as dropped, and one it took but did
 * not answer in time is counted as unconfirmed (it may still be read, so it is not sent twice); the end of the test
 * waits for room and for the drain within {@value PluginNames#SENDER_DRAIN_SECONDS}. The counts go to the controller's summary
 * through its collector ({@link DeliveryReport}).
 * As JMeter's senders, it is built on the controller by SampleSenderFactory and shipped to each engine, so its
 * settings are the controller's ({@code sample_sender_client_configured}, JMeter's default) or the engine's.
 */
public final class CompactSampleSender extends AbstractSampleSender implements Serializable {
    private static final long serialVersionUID = 1L;
    private static final Logger log = LoggerFactory.getLogger(CompactSampleSender.class);

    private static final String STRIP_ON_ERROR = "sample_sender_strip_also_on_error";

    private static final SampleEvent END = new SampleEvent();
    /** The sampler context's key for the last result a sender spooled on this thread. */
    private static final String SPOOLED = "stampede.spooled_result";

    private final RemoteSampleListener listener;
    private final Settings clientSettings = Settings.fromProperties();

    private transient Settings settings;
    private transient BlockingQueue<SampleEvent> queue;
    private transient Thread sender;
    private transient AtomicLong queueWaits;
    private transient AtomicLong queueWaitNanos;
    private transient AtomicLong sent;
    private transient AtomicLong dropped;
    /** Samples of calls the controller received but did not answer in time: in the JTL if it read them later. */
    private transient AtomicLong unconfirmed;
    /** Set once a wait for room timed out: samples are dropped without waiting until the queue takes one again. */
    private transient volatile boolean shedding;
    /** The engine's own copy of its samples for `stampede server --metrics`; null without. */
    private transient EngineSampleSpool spool;

    /** Called by JMeter's SampleSenderFactory on the controller. */
    public CompactSampleSender(RemoteSampleListener listener) {
        this.listener = listener;
        log.info("Using Stampede's compact sample sender: {}", clientSettings);
    }

    /** On the engine, after the controller's instance arrived. */
    private Object readResolve() throws ObjectStreamException {
        return startOnEngine();
    }

    /** The queue and the thread that empties it. */
    CompactSampleSender startOnEngine() {
        settings = isClientConfigured() ? clientSettings : Settings.fromProperties();
        log.info("Stampede's compact sample sender on this engine: {}", settings);
        queue = new ArrayBlockingQueue<>(settings.queueSize());
        queueWaits = new AtomicLong();
        queueWaitNanos = new AtomicLong();
        sent = new AtomicLong();
        dropped = new AtomicLong();
        unconfirmed = new AtomicLong();
        spool = EngineSampleSpool.ofProperty(JMeterUtils.getProperty(PluginNames.ENGINE_SAMPLES_DIR));
        sender = new Thread(this::sendUntilEnd, "stampede-sample-sender");
        sender.setDaemon(true);
        sender.start();
        return this;
    }

    @Override
    public void sampleOccurred(SampleEvent e) {
        if (spool != null && firstSender(e)) {
            spool.write(e);
        }
        SampleEvent outgoing = outgoing(e, settings.stripAlsoOnError());
        if (queue.offer(outgoing)) {
            shedding = false;
            return;
        }
        if (shedding) {
            dropped.incrementAndGet();
            return;
        }
        long start = System.nanoTime();
        try {
            if (!queue.offer(outgoing, settings.queueWaitMillis(), TimeUnit.MILLISECONDS)) {
                shedding = true;
                dropped.incrementAndGet();
                log.warn("The queue of {} samples for the controller stayed full for {} ms ({}): samples are dropped"
                        + " and counted until it has room (the controller's summary reports them)", settings.queueSize(),
                        settings.queueWaitMillis(), PluginNames.SENDER_QUEUE_WAIT_MS);
            }
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
            dropped.incrementAndGet();
        } finally {
            queueWaits.incrementAndGet();
            queueWaitNanos.addAndGet(System.nanoTime() - start);
        }
    }

    /**
     * Whether this sender is the first of the engine's senders to get the sample: each result listener of the plan
     * has its own sender and JMeter hands them the same event in turn, on the sampling thread; the thread's sampler
     * context remembers the last result spooled, so the engine's metrics count each sample once.
     */
    private static boolean firstSender(SampleEvent e) {
        return JMeterContextService.getContext().getSamplerContext().put(SPOOLED, e.getResult()) != e.getResult();
    }

    @Override
    public void testEnded(String host) {
        long drainNanos = TimeUnit.SECONDS.toNanos(settings.drainSeconds());
        long deadline = System.nanoTime() + drainNanos;
        try {
            if (!queue.offer(END, drainNanos, TimeUnit.NANOSECONDS)) {
                log.warn("The sample queue stayed full for {} s ({}); reporting the end of the test anyway",
                        settings.drainSeconds(), PluginNames.SENDER_DRAIN_SECONDS);
            }
            sender.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (sender.isAlive()) {
            sender.interrupt();
            List<SampleEvent> left = new ArrayList<>();
            queue.drainTo(left);
            left.remove(END);
            dropped.addAndGet(left.size());
            log.warn("{} samples still queued after {} s ({}): dropped and counted; reporting the end of the test"
                    + " anyway", left.size(), settings.drainSeconds(), PluginNames.SENDER_DRAIN_SECONDS);
        }
        if (queueWaits.get() > 0) {
            log.info("Sampling threads waited for room in the sample queue {} times, {} ms in all; raise {}",
                    queueWaits.get(), TimeUnit.NANOSECONDS.toMillis(queueWaitNanos.get()), PluginNames.SENDER_QUEUE_SIZE);
        }
        if (spool != null) {
            spool.close();
        }
        log.info("Samples sent to the controller: {}, dropped: {}, unconfirmed: {}", sent.get(), dropped.get(),
                unconfirmed.get());
        DeliveryReport.send(sent.get(), dropped.get(), unconfirmed.get());
        endAtController(host, deadline);
    }

    /** The controller waits for every engine's end: asked again while the drain time lasts, then given up. */
    private void endAtController(String host, long deadline) {
        for (int attempt = 1; ; attempt++) {
            try {
                listener.testEnded(host);
                return;
            } catch (RemoteException | RuntimeException e) {
                if (System.nanoTime() > deadline || attempt >= 3) {
                    log.error("Could not tell the controller that the test ended on {}", host, e);
                    return;
                }
                log.warn("Telling the controller that the test ended on {} failed ({}); trying again", host, e.toString());
            }
        }
    }

    /** Samples the controller took so far. */
    long sent() {
        return sent.get();
    }

    /** Samples dropped so far: no room in the queue, a batch refused twice, or left when the drain time ran out. */
    long dropped() {
        return dropped.get();
    }

    /** Samples of calls the controller did not answer in time (RMI's response timeout): perhaps in the JTL. */
    long unconfirmed() {
        return unconfirmed.get();
    }

    /**
     * The same event, its result swapped for one that serializes compactly (when this form can carry it); public for
     * the controller's tests of what its serialization filter lets through.
     */
    public static SampleEvent outgoing(SampleEvent e, boolean stripAlsoOnError) {
        SampleResult r = e.getResult();
        if (!ResultForm.canCarry(r)) {
            return e;
        }
        OutgoingResult compact = new OutgoingResult(r, stripAlsoOnError || r.isSuccessful());
        int vars = SampleEvent.getVarCount();
        if (vars == 0 && !e.isTransactionSampleEvent()) {
            return new SampleEvent(compact, e.getThreadGroup(), e.getHostname());
        }
        JMeterVariables values = new JMeterVariables();
        for (int i = 0; i < vars; i++) {
            String value = e.getVarValue(i);
            if (value != null) {
                values.put(SampleEvent.getVarName(i), value);
            }
        }
        return new SampleEvent(compact, e.getThreadGroup(), values, e.isTransactionSampleEvent());
    }

    /**
     * Each call to the controller is a fresh RMI stream that carries its class descriptors again and wakes the
     * controller's receiving thread: a batch waits up to the linger time to fill, as JMeter's batch sender waits
     * for its thresholds, so that a call carries many samples at high rates and none waits long at low ones.
     */
    private void sendUntilEnd() {
        long lingerNanos = TimeUnit.MILLISECONDS.toNanos(settings.lingerMillis());
        try {
            boolean end = false;
            while (!end) {
                List<SampleEvent> batch = new ArrayList<>(Math.min(settings.batchSize(), 4_096));
                batch.add(queue.take());
                long deadline = System.nanoTime() + lingerNanos;
                while (true) {
                    queue.drainTo(batch, settings.batchSize() - batch.size());
                    end = batch.get(batch.size() - 1) == END;
                    long left = deadline - System.nanoTime();
                    if (end || batch.size() >= settings.batchSize() || left <= 0) {
                        break;
                    }
                    SampleEvent next = queue.poll(left, TimeUnit.NANOSECONDS);
                    if (next == null) {
                        break;
                    }
                    batch.add(next);
                }
                if (end) {
                    batch.remove(batch.size() - 1);
                }
                if (!batch.isEmpty()) {
                    send(batch);
                }
                if (spool != null) {
                    spool.flush();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** One batch, sent a second time if the first call fails; every failure is counted, none ends this thread. */
    private void send(List<SampleEvent> batch) {
        for (int attempt = 1; attempt <= 2; attempt++) {
            try {
                listener.processBatch(batch);
                sent.addAndGet(batch.size());
                return;
            } catch (Throwable e) { // whatever the call threw, this thread must go on emptying the queue
                if (unanswered(e)) {
                    // the whole call was written and the controller may read it later (a stopped controller does):
                    // sent again, it could land twice; counted apart, since it is neither surely in nor out
                    unconfirmed.addAndGet(batch.size());
                    log.error("The controller did not answer a batch of {} samples in time: counted as unconfirmed"
                            + " (in the JTL if the controller read it later), not sent again", batch.size(), e);
                    return;
                }
                if (attempt == 2) {
                    dropped.addAndGet(batch.size());
                    log.error("{} samples were not delivered to the controller (sent twice): dropped and counted",
                            batch.size(), e);
                } else {
                    log.warn("A batch of {} samples was not delivered to the controller ({}); sending it again",
                            batch.size(), e.toString());
                }
            }
        }
    }

    /**
     * True when the call went out whole and only its answer is missing: RMI's response timeout while it read the
     * return ({@code UnmarshalException} caused by a {@code SocketTimeoutException}).
     */
    static boolean unanswered(Throwable e) {
        if (!(e instanceof UnmarshalException)) {
            return false;
        }
        for (Throwable c = e.getCause(); c != null; c = c.getCause()) {
            if (c instanceof SocketTimeoutException) {
                return true;
            }
        }
        return false;
    }

    /** The sender's settings, read from JMeter properties where the sender is configured. */
    record Settings(int queueSize, int batchSize, int lingerMillis, int drainSeconds, int queueWaitMillis,
                    boolean stripAlsoOnError) implements Serializable {
        static Settings fromProperties() {
            return new Settings(
                    Math.max(1, JMeterUtils.getPropDefault(PluginNames.SENDER_QUEUE_SIZE, 100_000)),
                    Math.max(1, JMeterUtils.getPropDefault(PluginNames.SENDER_BATCH_SIZE, 2_000)),
                    Math.max(0, JMeterUtils.getPropDefault(PluginNames.SENDER_LINGER_MS, 1_000)),
                    Math.max(1, JMeterUtils.getPropDefault(PluginNames.SENDER_DRAIN_SECONDS, 120)),
                    Math.max(0, JMeterUtils.getPropDefault(PluginNames.SENDER_QUEUE_WAIT_MS, 1_000)),
                    JMeterUtils.getPropDefault(STRIP_ON_ERROR, true));
        }
    }
}
