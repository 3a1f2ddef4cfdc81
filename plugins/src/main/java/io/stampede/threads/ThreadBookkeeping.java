/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.threads;

import org.apache.jmeter.control.GenericController;
import org.apache.jmeter.threads.AbstractThreadGroup;
import org.apache.jmeter.threads.JMeterThread;
import org.apache.jmeter.threads.SamplePackage;
import org.apache.jmeter.threads.TestCompiler;
import org.apache.jorphan.collections.HashTree;
import org.apache.jorphan.collections.HashTreeTraverser;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.reflect.Field;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Trims what JMeter builds per thread when it compiles the thread's plan, once it is built: a virtual user lives
 * for the whole test holding it, and JMeter sizes it for growth that never comes after the compile. The contents
 * and their order are untouched; only the containers shrink:
 * <ul>
 *   <li>the {@code TestCompiler}'s two identity maps (tables for 32 keys, holding one entry per sampler and
 *       transaction controller) are copied into maps sized for their entries;</li>
 *   <li>each {@code SamplePackage}'s seven lists (most empty, the others with room for ten) become compact
 *       unmodifiable lists: nothing adds to a package after the compile;</li>
 *   <li>each controller's child identity map (only read while compiling), iteration-listener deque and child list
 *       are copied or trimmed to their size (the deque and the list stay modifiable: JMeter adds and removes
 *       there while running); so is the user's root's child map (a thread group's is sized for 32).</li>
 * </ul>
 * Runs in the user's own thread right after JMeter compiled its plan (our group's root is the first
 * {@code ThreadListener} JMeter calls), so no other thread sees the containers change. A field this JMeter does not
 * have is skipped.
 */
final class ThreadBookkeeping {
    private static final Logger log = LoggerFactory.getLogger(ThreadBookkeeping.class);

    private static final Field COMPILER = field(JMeterThread.class, "compiler");
    private static final Field TREE = field(JMeterThread.class, "testTree");
    private static final Field ITERATION_LISTENERS = field(JMeterThread.class, "testIterationStartListeners");
    private static final Field SAMPLE_MONITORS = field(JMeterThread.class, "sampleMonitors");
    private static final Field SAMPLER_PACKAGES = field(TestCompiler.class, "samplerConfigMap");
    private static final Field TRANSACTION_PACKAGES = field(TestCompiler.class, "transactionControllerConfigMap");
    private static final List<Field> PACKAGE_LISTS = List.of(field(SamplePackage.class, "sampleListeners"),
            field(SamplePackage.class, "timers"), field(SamplePackage.class, "assertions"),
            field(SamplePackage.class, "postProcessors"), field(SamplePackage.class, "preProcessors"),
            field(SamplePackage.class, "configs"), field(SamplePackage.class, "controllers"));
    private static final Field CONTROLLER_CHILDREN = field(GenericController.class, "children");
    private static final Field CONTROLLER_LISTENERS = field(GenericController.class, "iterationListeners");
    private static final Field CONTROLLER_ELEMENTS = field(GenericController.class, "subControllersAndSamplers");
    private static final Field GROUP_CHILDREN = field(AbstractThreadGroup.class, "children");

    private ThreadBookkeeping() {
    }

    private static Field field(Class<?> type, String name) {
        try {
            Field f = type.getDeclaredField(name);
            f.setAccessible(true);
            return f;
        } catch (ReflectiveOperationException | RuntimeException e) {
            log.debug("{}.{} not trimmed: {}", type.getSimpleName(), name, e.toString());
            return null;
        }
    }

    /** {@code thread}'s own copy of the plan, or null where this JMeter keeps it elsewhere. */
    static HashTree plan(JMeterThread thread) {
        try {
            return TREE != null && TREE.get(thread) instanceof HashTree t ? t : null;
        } catch (IllegalAccessException e) {
            return null;
        }
    }

    /** Trims {@code thread}'s compiled plan and the controllers of its plan. */
    static void trim(JMeterThread thread) {
        try {
            replace(ITERATION_LISTENERS, thread, ThreadBookkeeping::compactList);
            replace(SAMPLE_MONITORS, thread, ThreadBookkeeping::compactList);
            Object compiler = COMPILER == null ? null : COMPILER.get(thread);
            if (compiler != null) {
                trimPackages(compiler, SAMPLER_PACKAGES);
                trimPackages(compiler, TRANSACTION_PACKAGES);
            }
            Object tree = TREE == null ? null : TREE.get(thread);
            if (tree instanceof HashTree t) {
                t.traverse(new Controllers());
            }
        } catch (IllegalAccessException | RuntimeException e) {
            log.debug("JMeter's per-thread bookkeeping not trimmed: {}", e.toString());
        }
    }

    private static void trimPackages(Object compiler, Field mapField) throws IllegalAccessException {
        if (mapField == null) {
            return;
        }
        Map<?, ?> packages = (Map<?, ?>) mapField.get(compiler);
        for (Object pack : packages.values()) {
            for (Field list : PACKAGE_LISTS) {
                replace(list, pack, ThreadBookkeeping::compactList);
            }
        }
        mapField.set(compiler, new IdentityHashMap<>(packages));
    }

    private static Object compactList(Object value) {
        return value instanceof Collection<?> c ? List.copyOf(c) : value;
    }

    private interface Copy {
        Object of(Object value);
    }

    private static void replace(Field f, Object owner, Copy copy) throws IllegalAccessException {
        if (f == null) {
            return;
        }
        Object value = f.get(owner);
        if (value != null) {
            f.set(owner, copy.of(value));
        }
    }

    /** The controllers' containers, sized for what the compile put in them. */
    private static final class Controllers implements HashTreeTraverser {
        @Override
        public void addNode(Object node, HashTree subTree) {
            if (node instanceof AbstractThreadGroup root) {
                try {
                    replace(GROUP_CHILDREN, root, v -> new IdentityHashMap<>((Map<?, ?>) v));
                } catch (IllegalAccessException e) {
                    log.debug("group {} not trimmed: {}", root.getName(), e.toString());
                }
                return;
            }
            if (!(node instanceof GenericController controller)) {
                return;
            }
            try {
                replace(CONTROLLER_CHILDREN, controller, v -> new IdentityHashMap<>((Map<?, ?>) v));
                replace(CONTROLLER_LISTENERS, controller, v -> new ArrayDeque<>((Collection<?>) v));
                if (CONTROLLER_ELEMENTS != null && CONTROLLER_ELEMENTS.get(controller) instanceof ArrayList<?> l) {
                    l.trimToSize();
                }
            } catch (IllegalAccessException e) {
                log.debug("controller {} not trimmed: {}", controller.getName(), e.toString());
            }
        }

        @Override
        public void subtractNode() {
            // nothing to undo
        }

        @Override
        public void processPath() {
            // nothing per path
        }
    }
}
