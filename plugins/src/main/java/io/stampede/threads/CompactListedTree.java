/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.threads;

import org.apache.jorphan.collections.HashTree;
import org.apache.jorphan.util.JMeterError;

import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;

/**
 * A {@link HashTree} that keeps its keys in the order they were added, like JMeter's
 * {@link org.apache.jorphan.collections.ListedHashTree}, but whose maps are sized for the children it holds. A
 * {@code ListedHashTree} node allocates an identity map for 32 keys (a 64-slot table) even as a leaf; a virtual
 * user's copy of the plan has one node per element, so those empty tables were kilobytes per user. Traversal,
 * listing and editing behave as in {@code ListedHashTree}: same order, same identity semantics.
 */
public class CompactListedTree extends HashTree {
    private static final long serialVersionUID = 1L;

    private final ArrayList<Object> order;

    /** An empty node that expects {@code children} keys (it still grows past them). */
    public CompactListedTree(int children) {
        super(new IdentityHashMap<>(children));
        order = new ArrayList<>(children);
    }

    public CompactListedTree() {
        this(0);
    }

    /** The key order, for a subclass or test; callers of {@link #list()} get the same list. */
    final List<Object> order() {
        return order;
    }

    @Override
    public Object clone() {
        CompactListedTree copy = new CompactListedTree(order.size());
        cloneTree(copy);
        return copy;
    }

    @Override
    public void set(Object key, Object value) {
        remember(key);
        super.set(key, value);
    }

    @Override
    public void set(Object key, HashTree t) {
        remember(key);
        super.set(key, t);
    }

    @Override
    public void set(Object key, Object[] values) {
        remember(key);
        super.set(key, values);
    }

    @Override
    public void set(Object key, Collection<?> values) {
        remember(key);
        super.set(key, values);
    }

    private void remember(Object key) {
        if (!data.containsKey(key)) {
            order.add(key);
        }
    }

    @Override
    public void replaceKey(Object currentKey, Object newKey) {
        int at = indexOf(currentKey);
        if (at < 0) {
            throw new JMeterError("key not in the tree's order: " + currentKey.getClass());
        }
        HashTree subtree = data.remove(currentKey);
        data.put(newKey, subtree);
        order.set(at, newKey);
    }

    /** Where {@code key} is in the order, by identity (elements may be equal without being the same). */
    private int indexOf(Object key) {
        for (int i = 0; i < order.size(); i++) {
            if (order.get(i) == key) {
                return i;
            }
        }
        return -1;
    }

    @Override
    protected HashTree createNewTree() {
        return new CompactListedTree();
    }

    @Override
    protected HashTree createNewTree(Object key) {
        CompactListedTree t = new CompactListedTree(1);
        t.add(key);
        return t;
    }

    @Override
    protected HashTree createNewTree(Collection<?> keys) {
        CompactListedTree t = new CompactListedTree(keys.size());
        for (Object key : keys) {
            t.add(key);
        }
        return t;
    }

    @Override
    public HashTree add(Object key) {
        HashTree existing = data.get(key);
        if (existing != null || data.containsKey(key)) {
            return existing;
        }
        HashTree subtree = createNewTree();
        data.put(key, subtree);
        order.add(key);
        return subtree;
    }

    @Override
    public Collection<Object> list() {
        return order;
    }

    @Override
    public HashTree remove(Object key) {
        if (data.containsKey(key)) {
            order.removeIf(k -> k == key);
        }
        return data.remove(key);
    }

    @Override
    public Object[] getArray() {
        return order.toArray();
    }

    @Override
    public int hashCode() {
        int h = 17;
        for (Object key : order) {
            h = h * 37 + System.identityHashCode(key);
        }
        return h * 37 + super.hashCode();
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof CompactListedTree) || !super.equals(o)) {
            return false;
        }
        List<Object> other = ((CompactListedTree) o).order;
        for (int i = 0; i < order.size(); i++) {
            if (order.get(i) != other.get(i)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void clear() {
        super.clear();
        order.clear();
    }
}
