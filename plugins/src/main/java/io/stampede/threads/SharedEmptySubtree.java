/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.threads;

import org.apache.jorphan.collections.HashTree;

import java.util.Collection;
import java.util.List;

/**
 * The subtree of every leaf (an element without children: extractors, timers, assertions, listeners) in every
 * user's copy of a thread group's plan: one instance for all of them, since an empty tree holds nothing a user
 * could own. Half the nodes of a typical copy are leaves, and each was its own tree with an identity map, its
 * table and an order list. JMeter only reads a thread's tree once the thread is built; anything that would add to
 * or rename in a leaf at run time is refused here, naming why, instead of reaching every user's copy at once.
 */
final class SharedEmptySubtree extends CompactListedTree {
    private static final long serialVersionUID = 1L;

    SharedEmptySubtree() {
        super(0);
    }

    private static UnsupportedOperationException refused(String what) {
        return new UnsupportedOperationException("cannot " + what + " under an element without children in a "
                + VirtualUserThreadGroup.DISPLAY_NAME + " user's plan: all users share that empty subtree; "
                + "change the plan before the test starts");
    }

    @Override
    public HashTree add(Object key) {
        throw refused("add " + key);
    }

    @Override
    public void set(Object key, Object value) {
        throw refused("set " + key);
    }

    @Override
    public void set(Object key, HashTree t) {
        throw refused("set " + key);
    }

    @Override
    public void set(Object key, Object[] values) {
        throw refused("set " + key);
    }

    @Override
    public void set(Object key, Collection<?> values) {
        throw refused("set " + key);
    }

    @Override
    public void replaceKey(Object currentKey, Object newKey) {
        throw refused("replace " + currentKey);
    }

    /** Removing from an empty tree changes nothing, as in any {@code HashTree}. */
    @Override
    public HashTree remove(Object key) {
        return null;
    }

    /** Clearing an empty tree changes nothing. */
    @Override
    public void clear() {
        // already empty
    }

    /** An unmodifiable empty list: the order list of this node is every user's. */
    @Override
    public Collection<Object> list() {
        return List.of();
    }
}
