/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.threads;

import org.apache.jmeter.testelement.AbstractTestElement;
import org.apache.jmeter.testelement.TestElement;
import org.apache.jmeter.testelement.property.BooleanProperty;
import org.apache.jmeter.testelement.property.CollectionProperty;
import org.apache.jmeter.testelement.property.JMeterProperty;
import org.apache.jmeter.testelement.property.PropertyIterator;
import org.apache.jmeter.testelement.property.StringProperty;
import org.apache.jmeter.testelement.property.TestElementProperty;
import org.apache.jmeter.threads.AbstractThreadGroup;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Puts a user's element copies on {@link CompactPropertyMap}s: each copy keeps its own property objects (as
 * JMeter's clone made them), but not a {@code LinkedHashMap} with an entry per property; the names live once per
 * element of the plan, in a {@link PropertyLayout} shared by all users, and so do the two class names no running
 * test uses ({@link SharedClassNameProperty}). Elements nested in properties (an HTTP
 * Request's arguments, each argument) get the same. One instance per thread group, so the layouts live as long as
 * the test.
 *
 * <p>{@code AbstractTestElement} keeps its properties in a private final field; this replaces that map by
 * reflection, once per copy, before the user's thread sees the copy. Where the JVM refuses (a future Java that
 * makes final fields final for reflection too), copies keep JMeter's own map and the run goes on unchanged, only
 * heavier; that is logged once.
 */
final class CompactProperties {
    private static final Logger log = LoggerFactory.getLogger(CompactProperties.class);
    private static final Field PROP_MAP = field("propMap");
    /** Non-null only for elements JMeter shares between threads (NoThreadClone, thread groups): left alone. */
    private static final Field PROP_MAP_CONCURRENT = field("propMapConcurrent");
    /** The read-write lock JMeter gives the elements it shares, thread groups included, and its unlock callback. */
    private static final Field LOCK = field("lock");
    private static final Field READ_UNLOCK = field("readUnlock");

    private final Map<TestElement, PropertyLayout> layouts = new IdentityHashMap<>();
    /** By the template's property object: the one all users' copies share instead ({@link SharedClassNameProperty}). */
    private final Map<JMeterProperty, SharedClassNameProperty> sharedNames = new IdentityHashMap<>();
    /** By the template's property object: the one users' copies share until they change it. */
    private final Map<JMeterProperty, JMeterProperty> sharedValues = new IdentityHashMap<>();
    /** By the template's property object: the element of the plan it was first met in. */
    private final Map<JMeterProperty, TestElement> valueOwners = new IdentityHashMap<>();
    private boolean refused;

    private static Field field(String name) {
        try {
            Field f = AbstractTestElement.class.getDeclaredField(name);
            f.setAccessible(true);
            return f;
        } catch (ReflectiveOperationException | RuntimeException e) {
            log.warn("Stampede virtual users: JMeter's AbstractTestElement has no accessible field {} ({}); users "
                    + "keep JMeter's own property maps", name, e.toString());
            return null;
        }
    }

    /** Whether this JMeter and JVM let the maps be replaced at all. */
    static boolean available() {
        return PROP_MAP != null && PROP_MAP_CONCURRENT != null;
    }

    /**
     * Moves {@code copy}'s properties (and those of the elements nested in them) into compact maps, laid out as
     * {@code template}'s; {@code copy} must be a fresh clone of {@code template} no thread uses yet. With
     * {@code shareValues}, {@code copy}'s own text and true/false properties become the objects all users' copies
     * of {@code template} share until one changes them ({@link SharedStringProperty}); the caller allows it only
     * for an element of the user's tree that no other element takes properties from and that the tree holds once.
     */
    synchronized void compact(TestElement template, TestElement copy, boolean shareValues) {
        if (refused || !available() || !(copy instanceof AbstractTestElement)) {
            return;
        }
        try {
            compactOne(template, (AbstractTestElement) copy, shareValues);
        } catch (IllegalAccessException | RuntimeException e) {
            refuse(e);
        }
    }

    private void refuse(Exception e) {
        refused = true;
        log.warn("Stampede virtual users: cannot replace JMeter's property maps ({}); users keep JMeter's own maps and "
                + "weigh more", e.toString());
    }

    /**
     * A user's root (its copy of the thread group): the elements nested in its properties (its loop controller) as
     * {@link #compact} does, and its own properties in one compact map. JMeter makes every thread group a shared
     * element (a lock, and a concurrent copy of its map beside the ordered one), because the group itself is reached
     * by every thread; a user's root is reached only by its user's thread (the user's context names the group, not
     * the root), so one map serves both of JMeter's fields, and it needs no lock.
     */
    synchronized void compactRoot(TestElement template, AbstractThreadGroup root) {
        if (refused || !available()) {
            return;
        }
        try {
            for (PropertyIterator it = root.propertyIterator(); it.hasNext(); ) {
                JMeterProperty p = it.next();
                nested(template.getProperty(p.getName()), p);
            }
            if (LOCK == null || READ_UNLOCK == null) {
                return;
            }
            @SuppressWarnings("unchecked")
            Map<String, JMeterProperty> own = (Map<String, JMeterProperty>) PROP_MAP.get(root);
            CompactPropertyMap compact = compactMap(template, own, false);
            PROP_MAP.set(root, compact);
            PROP_MAP_CONCURRENT.set(root, compact);
            LOCK.set(root, null);
            READ_UNLOCK.set(root, null);
        } catch (IllegalAccessException | RuntimeException e) {
            refuse(e);
        }
    }

    /** {@code own}'s properties, in its order, in a compact map laid out as {@code template}'s. */
    private CompactPropertyMap compactMap(TestElement template, Map<String, JMeterProperty> own,
                                          boolean shareValues) {
        List<String> names = new ArrayList<>(own.size());
        JMeterProperty[] properties = new JMeterProperty[own.size()];
        synchronized (own) {
            int i = 0;
            for (Map.Entry<String, JMeterProperty> e : own.entrySet()) {
                names.add(e.getKey());
                properties[i++] = shared(template, template.getProperty(e.getKey()), e.getValue(), shareValues);
            }
        }
        PropertyLayout layout = layouts.get(template);
        if (layout == null || !layout.sameAs(names)) {
            layout = new PropertyLayout(names);
            layouts.putIfAbsent(template, layout);
        }
        return new CompactPropertyMap(layout, properties);
    }

    /** The object every user's copy shares for {@code copy}, a clone of {@code template}; else {@code copy}. */
    private JMeterProperty shared(TestElement element, JMeterProperty template, JMeterProperty copy,
                                  boolean shareValues) {
        if (SharedClassNameProperty.shareable(template, copy)) {
            return sharedNames.computeIfAbsent(template, t -> new SharedClassNameProperty(copy.getName(),
                    copy.getStringValue()));
        }
        if (!shareValues || !copy.isRunningVersion() || template.getClass() != copy.getClass()
                || !shareableKind(copy)) {
            return copy;
        }
        // A property object two elements of the plan hold would be one object in both of a user's elements.
        TestElement first = valueOwners.putIfAbsent(template, element);
        if (first != null && first != element) {
            return copy;
        }
        JMeterProperty value = sharedValues.computeIfAbsent(template, t -> sharedValue(copy));
        // The plan's element does not change while the test runs; should it, a user copied since keeps its own.
        return value.getName().equals(copy.getName()) && Objects.equals(value.getObjectValue(), copy.getObjectValue())
                ? value : copy;
    }

    /** Text with a value, or true/false: the kinds with a shared form (not {@code ${...}}, numbers, collections). */
    private static boolean shareableKind(JMeterProperty p) {
        return p.getClass() == StringProperty.class && p.getStringValue() != null
                || p.getClass() == BooleanProperty.class;
    }

    /** A shared object in the state of {@code copy}, a running property of a {@link #shareableKind}. */
    private static JMeterProperty sharedValue(JMeterProperty copy) {
        return copy instanceof BooleanProperty b ? new SharedBooleanProperty(b.getName(), b.getBooleanValue())
                : new SharedStringProperty(copy.getName(), copy.getStringValue());
    }

    /** Puts {@code own} where {@code element}'s compact map holds {@code shared}; whether it held it. */
    static boolean swap(TestElement element, JMeterProperty shared, JMeterProperty own) {
        try {
            return PROP_MAP != null && element instanceof AbstractTestElement
                    && PROP_MAP.get(element) instanceof CompactPropertyMap map && map.swap(shared, own);
        } catch (IllegalAccessException e) {
            return false;
        }
    }

    private void compactOne(TestElement template, AbstractTestElement copy, boolean shareValues)
            throws IllegalAccessException {
        if (PROP_MAP_CONCURRENT.get(copy) != null) {
            return;
        }
        @SuppressWarnings("unchecked")
        Map<String, JMeterProperty> own = (Map<String, JMeterProperty>) PROP_MAP.get(copy);
        if (own instanceof CompactPropertyMap) {
            return;
        }
        for (JMeterProperty p : own.values().toArray(new JMeterProperty[0])) {
            nested(template.getProperty(p.getName()), p);
        }
        PROP_MAP.set(copy, compactMap(template, own, shareValues));
    }

    /** The elements inside {@code copied} (a clone of {@code original}), matched by position. */
    private void nested(JMeterProperty original, JMeterProperty copied) throws IllegalAccessException {
        if (copied instanceof TestElementProperty c && original instanceof TestElementProperty o) {
            TestElement ce = c.getElement();
            TestElement oe = o.getElement();
            if (ce instanceof AbstractTestElement a && oe != null && ce != oe) {
                compactOne(oe, a, false);
            }
        } else if (copied instanceof CollectionProperty c && original instanceof CollectionProperty o
                && c.size() == o.size()) {
            for (int i = 0; i < c.size(); i++) {
                nested(o.get(i), c.get(i));
            }
        }
    }
}
