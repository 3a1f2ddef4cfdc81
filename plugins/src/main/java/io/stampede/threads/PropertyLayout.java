/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.threads;

import java.io.Serializable;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The property names of one element of the plan, in order: shared by all users' copies of that element, so a copy
 * keeps only its property objects ({@link CompactPropertyMap}).
 */
final class PropertyLayout implements Serializable {
    private static final long serialVersionUID = 1L;
    /** Up to this many names a scan (names are mostly the same interned constants) beats hashing. */
    private static final int SCAN_LIMIT = 8;

    private final String[] names;
    private final Map<String, Integer> index;

    PropertyLayout(List<String> names) {
        this.names = names.toArray(new String[0]);
        if (this.names.length > SCAN_LIMIT) {
            index = new HashMap<>(this.names.length * 2);
            for (int i = 0; i < this.names.length; i++) {
                if (index.putIfAbsent(this.names[i], i) != null) {
                    throw new IllegalArgumentException("duplicate property name " + this.names[i]);
                }
            }
        } else {
            index = null;
            if (names.stream().distinct().count() != names.size()) {
                throw new IllegalArgumentException("duplicate property names " + names);
            }
        }
    }

    int size() {
        return names.length;
    }

    String name(int i) {
        return names[i];
    }

    /** Whether this layout has exactly {@code other} names in that order. */
    boolean sameAs(List<String> other) {
        return Arrays.asList(names).equals(other);
    }

    /** The slot of {@code key}, or -1. */
    int indexOf(Object key) {
        if (index != null) {
            Integer i = index.get(key);
            return i == null ? -1 : i;
        }
        for (int i = 0; i < names.length; i++) {
            if (names[i] == key) {
                return i;
            }
        }
        if (key == null) {
            return -1;
        }
        for (int i = 0; i < names.length; i++) {
            if (names[i].equals(key)) {
                return i;
            }
        }
        return -1;
    }
}
