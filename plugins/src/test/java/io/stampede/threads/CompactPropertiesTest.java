/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.threads;

import org.apache.jmeter.config.Arguments;
import org.apache.jmeter.config.ConfigTestElement;
import org.apache.jmeter.samplers.AbstractSampler;
import org.apache.jmeter.samplers.Entry;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testelement.AbstractTestElement;
import org.apache.jmeter.testelement.TestElement;
import org.apache.jmeter.testelement.property.JMeterProperty;
import org.apache.jmeter.testelement.property.PropertyIterator;
import org.apache.jmeter.testelement.property.TestElementProperty;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A user's copy on compact maps does, property for property, what JMeter's own clone does through a sample's
 * life: a config element merged in (temporary properties), a running element's setter, the recovery after the
 * sample.
 */
class CompactPropertiesTest {
    /** A sampler with plain, empty and nested (element) properties. */
    public static class Probe extends AbstractSampler {
        private static final long serialVersionUID = 1L;

        @Override
        public SampleResult sample(Entry e) {
            return null;
        }
    }

    private static Probe template() {
        Probe p = new Probe();
        p.setName("probe");
        p.setProperty("path", "/p");
        p.setProperty("empty", "");
        p.setProperty("flag", true);
        p.setProperty("count", 3);
        Arguments args = new Arguments();
        args.addArgument("a", "1");
        args.addArgument("b", "2");
        p.setProperty(new TestElementProperty("args", args));
        p.setRunningVersion(true);
        return p;
    }

    private static ConfigTestElement config() {
        ConfigTestElement c = new ConfigTestElement();
        c.setProperty("empty", "filled by config");
        c.setProperty("extra", "from config");
        c.setRunningVersion(true);
        return c;
    }

    private static List<String> contents(TestElement e) {
        List<String> out = new ArrayList<>();
        for (PropertyIterator it = e.propertyIterator(); it.hasNext(); ) {
            JMeterProperty p = it.next();
            out.add(p.getName() + "=" + p.getStringValue() + (e.isTemporary(p) ? " (temporary)" : ""));
        }
        return out;
    }

    private static Object propMap(Object element) throws ReflectiveOperationException {
        Field f = AbstractTestElement.class.getDeclaredField("propMap");
        f.setAccessible(true);
        return f.get(element);
    }

    @Test
    void copyOnCompactMapsRunsAsJMeterClone() throws Exception {
        Probe template = template();
        List<String> templateBefore = contents(template);
        Probe jmeter = (Probe) template.clone();
        Probe ours = (Probe) template.clone();
        new CompactProperties().compact(template, ours, false);
        assertInstanceOf(CompactPropertyMap.class, propMap(ours));
        Object nested = ((TestElementProperty) ours.getProperty("args")).getElement();
        assertNotSame(((TestElementProperty) template.getProperty("args")).getElement(), nested);
        assertInstanceOf(CompactPropertyMap.class, propMap(nested), "nested elements are compacted too");

        for (Probe p : List.of(jmeter, ours)) {
            p.addTestElement(config());
            p.setProperty("path", "/changed by a script");
        }
        assertEquals(contents(jmeter), contents(ours));
        assertTrue(contents(ours).contains("extra=from config (temporary)"), contents(ours).toString());
        assertEquals(jmeter, ours);
        assertEquals(jmeter.hashCode(), ours.hashCode());

        jmeter.recoverRunningVersion();
        ours.recoverRunningVersion();
        assertEquals(contents(jmeter), contents(ours));
        assertEquals("/p", ours.getPropertyAsString("path"));
        assertEquals(jmeter, ours);

        // A second sample: the keys dropped by the recovery come back as temporary ones, at the end, as in JMeter.
        for (Probe p : List.of(jmeter, ours)) {
            p.addTestElement(config());
        }
        assertEquals(contents(jmeter), contents(ours));
        for (Probe p : List.of(jmeter, ours)) {
            p.recoverRunningVersion();
        }
        assertEquals(contents(jmeter), contents(ours));
        assertEquals(templateBefore, contents(template), "the template itself is never written");
    }

    @Test
    void usersShareTheClassNamesOfAnElementAndNoUserCanChangeThem() throws Exception {
        Probe template = template();
        template.setRunningVersion(false);
        template.setProperty(TestElement.GUI_CLASS, "ProbeGui");
        template.setProperty(TestElement.TEST_CLASS, Probe.class.getName());
        template.setRunningVersion(true);
        CompactProperties properties = new CompactProperties();
        Probe first = (Probe) template.clone();
        Probe second = (Probe) template.clone();
        Probe jmeter = (Probe) template.clone();
        properties.compact(template, first, false);
        properties.compact(template, second, false);
        for (String name : List.of(TestElement.GUI_CLASS, TestElement.TEST_CLASS)) {
            assertSame(first.getProperty(name), second.getProperty(name), name + ": one object for all users");
            assertNotSame(template.getProperty(name), first.getProperty(name), name + ": not the template's");
            assertEquals(jmeter.getProperty(name), first.getProperty(name));
            assertThrows(UnsupportedOperationException.class, () -> first.setProperty(name, "changed by one user"));
            assertEquals(template.getPropertyAsString(name), second.getPropertyAsString(name), name);
        }
        assertNotSame(first.getProperty("path"), second.getProperty("path"), "other properties stay each user's");
        first.recoverRunningVersion();
        first.setRunningVersion(true);
        assertEquals("ProbeGui", second.getPropertyAsString(TestElement.GUI_CLASS), "running-version calls write nothing");
        assertEquals(contents(jmeter), contents(first));

        Probe copied = (Probe) first.clone();
        assertNotSame(first.getProperty(TestElement.GUI_CLASS), copied.getProperty(TestElement.GUI_CLASS));
        copied.setProperty(TestElement.GUI_CLASS, "a clone owns its properties, as in JMeter");
        assertEquals("ProbeGui", second.getPropertyAsString(TestElement.GUI_CLASS));
    }

    @Test
    void usersShareOneLayoutPerElement() throws Exception {
        Probe template = template();
        CompactProperties properties = new CompactProperties();
        Probe first = (Probe) template.clone();
        Probe second = (Probe) template.clone();
        properties.compact(template, first, false);
        properties.compact(template, second, false);
        Field layout = CompactPropertyMap.class.getDeclaredField("layout");
        layout.setAccessible(true);
        assertEquals(System.identityHashCode(layout.get(propMap(first))),
                System.identityHashCode(layout.get(propMap(second))));
        first.setProperty("path", "/first");
        assertEquals("/p", second.getPropertyAsString("path"), "each user owns its property objects");
    }
}
