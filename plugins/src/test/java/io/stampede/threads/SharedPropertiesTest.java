/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.threads;

import io.stampede.remote.JMeterProperties;
import org.apache.jmeter.config.ConfigTestElement;
import org.apache.jmeter.engine.TurnElementsOn;
import org.apache.jmeter.samplers.AbstractSampler;
import org.apache.jmeter.samplers.Entry;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testelement.TestElement;
import org.apache.jmeter.testelement.property.BooleanProperty;
import org.apache.jmeter.testelement.property.StringProperty;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.apache.jmeter.threads.ListenerNotifier;
import org.apache.jorphan.collections.HashTree;
import org.apache.jorphan.collections.ListedHashTree;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Users' copies of an element share its text and true/false property objects until a user changes one; the change
 * must reach that user only, as it would reach only that user's clone in JMeter.
 */
class SharedPropertiesTest {
    private static final int USERS = 3;
    private static final int LOOPS = 2;
    static final Queue<String> SEEN = new ConcurrentLinkedQueue<>();
    static final CyclicBarrier ALL_WROTE = new CyclicBarrier(USERS);

    /**
     * Reads its properties, changes them in place as a running element's setters do (a script's
     * {@code sampler.setPath(...)}, JMeter's {@code setProperty} on a running copy), waits until every user has
     * changed its own, then reads them again.
     */
    public static class Writer extends AbstractSampler {
        private static final long serialVersionUID = 1L;

        @Override
        public SampleResult sample(Entry e) {
            int user = JMeterContextService.getContext().getThreadNum() + 1;
            String before = getPropertyAsString("path") + "/" + getPropertyAsBoolean("flag") + "/" + getName();
            setProperty("path", "/user-" + user);
            getProperty("flag").setObjectValue(Boolean.TRUE);
            setName("writer of user " + user);
            try {
                ALL_WROTE.await(10, TimeUnit.SECONDS);
            } catch (Exception ex) {
                SEEN.add(user + " " + ex);
            }
            String after = getPropertyAsString("path") + "/" + getPropertyAsBoolean("flag") + "/" + getName();
            SEEN.add(user + " " + before + " -> " + after);
            SampleResult r = new SampleResult();
            r.setSuccessful(true);
            return r;
        }
    }

    @BeforeAll
    static void jmeterProperties() throws Exception {
        JMeterProperties.loadIfMissing();
    }

    private static Writer writer() {
        Writer w = new Writer();
        w.setName("writer");
        w.setProperty("path", "/plan");
        w.setProperty("flag", false);
        return w;
    }

    private static ConfigTestElement config() {
        ConfigTestElement c = new ConfigTestElement();
        c.setName("defaults");
        c.setProperty("path", "/default");
        return c;
    }

    /** group → [config, writer], running as the engine turns a plan on before its threads start. */
    private static ListedHashTree plan(VirtualUserThreadGroup group, TestElement... children) {
        ListedHashTree tree = new ListedHashTree();
        HashTree g = tree.add(group);
        for (TestElement child : children) {
            g.add(child);
        }
        tree.traverse(new TurnElementsOn());
        return tree;
    }

    private static VirtualUserThreadGroup group(int users) {
        VirtualUserThreadGroup group = new VirtualUserThreadGroup();
        group.setName("users");
        group.setNumThreads(users);
        group.setRampUp("0");
        group.setLoops(Integer.toString(LOOPS));
        return group;
    }

    private static TestElement named(HashTree userPlan, String name) {
        HashTree under = userPlan.getTree(userPlan.getArray()[0]);
        for (Object key : under.list()) {
            if (((TestElement) key).getName().equals(name)) {
                return (TestElement) key;
            }
        }
        throw new AssertionError("no " + name);
    }

    @Test
    void usersShareTheTextAndTrueFalsePropertiesOfTheirCopiesButNotAConfigElements() {
        Writer template = writer();
        UserTreeCopier copier = new UserTreeCopier();
        ListedHashTree plan = plan(group(2), config(), template);
        HashTree first = copier.copy(plan);
        HashTree second = copier.copy(plan);
        TestElement a = named(first, "writer");
        TestElement b = named(second, "writer");
        assertNotSame(a, b);
        assertInstanceOf(SharedStringProperty.class, a.getProperty("path"));
        assertSame(a.getProperty("path"), b.getProperty("path"));
        assertSame(a.getProperty(TestElement.NAME), b.getProperty(TestElement.NAME));
        assertInstanceOf(SharedBooleanProperty.class, a.getProperty("flag"));
        assertSame(a.getProperty("flag"), b.getProperty("flag"));
        assertNotSame(template.getProperty("path"), a.getProperty("path"), "the plan's own object stays its own");
        assertNotSame(named(first, "defaults").getProperty("path"), named(second, "defaults").getProperty("path"),
                "a config element's properties go into samplers: each user owns them");
    }

    @Test
    void aUsersChangeReachesOnlyItsOwnCopyAndIsUndoneAfterTheSample() throws Exception {
        SEEN.clear();
        JMeterContextService.getContext().setVariables(new JMeterVariables());
        VirtualUserThreadGroup group = group(USERS);
        Writer template = writer();
        ListedHashTree plan = plan(group, template);

        group.launch(Thread::new, 1, new ListenerNotifier(), plan, null);
        group.waitThreadsStopped();

        List<String> expected = new ArrayList<>();
        List<String> seen = new ArrayList<>(SEEN);
        for (int user = 1; user <= USERS; user++) {
            for (int loop = 0; loop < LOOPS; loop++) {
                expected.add(user + " /plan/false/writer -> /user-" + user + "/true/writer of user " + user);
            }
        }
        seen.sort(null);
        assertEquals(expected, seen, "every user read the plan's values, then only its own change");
        assertEquals("/plan", template.getPropertyAsString("path"), "the plan itself is untouched");
        assertFalse(template.getPropertyAsBoolean("flag"));
    }

    @Test
    void aChangeFromAThreadThatIsNoUserIsRefusedAndReachesNoUser() throws Exception {
        UserTreeCopier copier = new UserTreeCopier();
        ListedHashTree plan = plan(group(2), writer());
        TestElement a = named(copier.copy(plan), "writer");
        TestElement b = named(copier.copy(plan), "writer");
        Thread outsider = new Thread(() -> {
            IllegalStateException refused = assertThrows(IllegalStateException.class,
                    () -> a.setProperty("path", "/outsider"));
            assertTrue(refused.getMessage().contains("property path"), refused.getMessage());
            SEEN.add("refused");
        });
        SEEN.clear();
        outsider.start();
        outsider.join(10_000);
        assertEquals(List.of("refused"), List.copyOf(SEEN));
        assertEquals("/plan", a.getPropertyAsString("path"));
        assertEquals("/plan", b.getPropertyAsString("path"));
    }

    @Test
    void aCloneOfAUsersElementAndASecondPlaceOfOneElementOwnOrdinaryProperties() {
        Writer template = writer();
        VirtualUserThreadGroup group = group(1);
        ListedHashTree plan = plan(group, template);
        HashTree g = plan.getTree(group);
        HashTree controller = g.add(new org.apache.jmeter.control.GenericController());
        controller.add(template);
        HashTree user = new UserTreeCopier().copy(plan);

        TestElement copy = named(user, "writer");
        TestElement clone = (TestElement) copy.clone();
        assertSame(StringProperty.class, clone.getProperty("path").getClass());
        assertSame(BooleanProperty.class, clone.getProperty("flag").getClass());
        clone.setProperty("path", "/clone");
        assertEquals("/plan", copy.getPropertyAsString("path"));

        HashTree under = user.getTree(user.getArray()[0]);
        Object controllerCopy = under.getArray()[1];
        TestElement secondPlace = (TestElement) under.getTree(controllerCopy).getArray()[0];
        assertNotSame(copy, secondPlace);
        assertSame(StringProperty.class, secondPlace.getProperty("path").getClass(),
                "an element the plan holds twice is copied twice, each with its own properties");
    }
}
