/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.threads;

import org.apache.jmeter.samplers.AbstractSampler;
import org.apache.jmeter.samplers.Entry;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testelement.AbstractTestElement;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.apache.jmeter.threads.ListenerNotifier;
import org.apache.jmeter.util.JMeterUtils;
import org.apache.jorphan.collections.HashTree;
import org.apache.jorphan.collections.ListedHashTree;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A user whose start throws fails alone: the starter goes on and the other users start and sample. Runs on the
 * build's Java (17) with platform threads in place of virtual ones: the starter's logic is the same.
 */
class UserStartFailureTest {
    static final Set<Integer> SAMPLED = new ConcurrentSkipListSet<>();
    static final AtomicInteger COPIES = new AtomicInteger();

    /** Records which user sampled. */
    public static class Recorder extends AbstractSampler {
        private static final long serialVersionUID = 1L;

        @Override
        public SampleResult sample(Entry e) {
            SAMPLED.add(JMeterContextService.getContext().getThreadNum() + 1);
            SampleResult r = new SampleResult();
            r.setSuccessful(true);
            return r;
        }
    }

    /** An element whose second copy fails, as a broken element of a plan fails for one user. */
    public static class FailsOnSecondCopy extends AbstractTestElement {
        private static final long serialVersionUID = 1L;

        @Override
        public Object clone() {
            if (COPIES.incrementAndGet() == 2) {
                throw new IllegalStateException("this element refuses its second copy");
            }
            return super.clone();
        }
    }

    @Test
    void oneUserFailingToStartDoesNotStopTheOthers() throws Exception {
        if (JMeterUtils.getJMeterProperties() == null) {
            Path empty = Files.createTempFile("jmeter", ".properties");
            JMeterUtils.loadJMeterProperties(empty.toString());
            Files.delete(empty);
        }
        JMeterContextService.getContext().setVariables(new JMeterVariables());
        VirtualUserThreadGroup group = new VirtualUserThreadGroup();
        group.setName("users");
        group.setNumThreads(4);
        group.setRampUp("0");
        group.setLoops("1");
        ListedHashTree tree = new ListedHashTree();
        HashTree g = tree.add(group);
        g.add(new FailsOnSecondCopy());
        Recorder recorder = new Recorder();
        recorder.setName("recorder");
        g.add(recorder);

        group.launch(Thread::new, 1, new ListenerNotifier(), tree, null);
        group.waitThreadsStopped();

        assertEquals(new TreeSet<>(Set.of(1, 3, 4)), new TreeSet<>(SAMPLED), "users other than the failed one ran");
        assertTrue(COPIES.get() >= 4, "every user was attempted: " + COPIES.get());
        assertTrue(group.verifyThreadsStopped());
    }
}
