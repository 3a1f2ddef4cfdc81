/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.threads;

import org.apache.jmeter.config.ConfigElement;
import org.apache.jmeter.engine.util.NoThreadClone;
import org.apache.jmeter.testelement.TestElement;
import org.apache.jorphan.collections.HashTree;
import org.apache.jorphan.collections.ListedHashTree;

import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/**
 * One user's copy of a thread group's tree, made by the rule of JMeter's {@code TreeCloner} (every element cloned,
 * parents before children, except {@link NoThreadClone} elements, which all users share) into
 * {@link CompactListedTree} nodes sized for their children, the root included (and our group as a lean
 * {@link VirtualUserThreadGroup#userRoot()}): a {@link ListedHashTree} parent casts
 * each subtree it returns to {@code ListedHashTree}, so no node of the copy may be one. Each cloned element's
 * properties go into a {@link CompactPropertyMap} laid out once per element of the template
 * ({@link CompactProperties}); one copier per thread group keeps those layouts. The subtrees of elements without
 * children are one {@link SharedEmptySubtree} for all users. The text and true/false properties of elements other
 * than config elements are the objects all users share until a user changes one ({@link SharedStringProperty}).
 */
final class UserTreeCopier {
    private final CompactProperties properties = new CompactProperties();
    /** The subtree of every element without children, in every user's copy made by this copier. */
    private final SharedEmptySubtree leaf = new SharedEmptySubtree();

    /** The plan's elements met so far in the copy being made (an element the tree holds twice is not shared). */
    private final Set<Object> met = Collections.newSetFromMap(new IdentityHashMap<>());

    synchronized CompactListedTree copy(ListedHashTree template) {
        try {
            return node(template, template.list());
        } finally {
            met.clear();
        }
    }

    private CompactListedTree children(HashTree template) {
        Collection<?> keys = template.list();
        return keys.isEmpty() ? leaf : node(template, keys);
    }

    private CompactListedTree node(HashTree template, Collection<?> keys) {
        CompactListedTree copy = new CompactListedTree(keys.size());
        for (Object key : keys) {
            // The element is cloned before its subtree, as TreeCloner's depth-first walk does.
            copy.set(ownCopy(key), children(template.getTree(key)));
        }
        return copy;
    }

    private Object ownCopy(Object node) {
        if (node instanceof VirtualUserThreadGroup group) {
            VirtualUserThreadGroup root = group.userRoot();
            properties.compactRoot(group, root);
            return root;
        }
        if (node instanceof TestElement element && !(node instanceof NoThreadClone)) {
            TestElement copy = (TestElement) element.clone();
            // A config element's property objects go into the samplers it configures: those stay the user's own.
            properties.compact(element, copy, met.add(element) && !(element instanceof ConfigElement));
            return copy;
        }
        return node;
    }
}
