/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.threads;

import org.apache.jmeter.testelement.property.JMeterProperty;

import java.io.Serializable;
import java.util.AbstractCollection;
import java.util.AbstractSet;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.function.Function;

/**
 * One user's property map of one element copy: what {@code AbstractTestElement} keeps in a synchronized
 * {@code LinkedHashMap}, with the same contents, lookups and iteration order, at a fraction of the bytes. The keys
 * the copy was made with are a {@link PropertyLayout} shared by every user's copy of that element; the user owns
 * only an array of its property objects (each still its own, as JMeter's clone makes them). A key added later
 * (a config element merged into a sampler, a property a script sets) goes into a small insertion-ordered map
 * that is dropped again once empty, so a user between samples holds none.
 *
 * <p>Order is exactly {@code LinkedHashMap}'s insertion order: the layout's keys were inserted first (by the clone),
 * a removed layout key leaves its slot empty, and a key added again after its removal goes to the end, as
 * {@code LinkedHashMap} puts it. Methods lock the map as {@code Collections.synchronizedMap} does; iteration does
 * not, as there. Views are made on each call rather than cached in the map (as {@code AbstractMap} would, two more
 * fields in every copy of every element).
 */
final class CompactPropertyMap implements Map<String, JMeterProperty>, Serializable {
    private static final long serialVersionUID = 1L;

    private final PropertyLayout layout;
    /** Slot i holds the property named {@code layout.name(i)}, or null once that key was removed. */
    private final JMeterProperty[] slots;
    /** Keys outside the layout, and layout keys added again after their removal; null when there are none. */
    private LinkedHashMap<String, JMeterProperty> added;

    /** A map holding {@code properties} (in the layout's order, one per layout key, none null). */
    CompactPropertyMap(PropertyLayout layout, JMeterProperty[] properties) {
        if (properties.length != layout.size()) {
            throw new IllegalArgumentException(properties.length + " properties for a layout of " + layout.size());
        }
        this.layout = layout;
        this.slots = properties;
    }

    @Override
    public synchronized JMeterProperty get(Object key) {
        int i = layout.indexOf(key);
        if (i >= 0 && slots[i] != null) {
            return slots[i];
        }
        return added == null ? null : added.get(key);
    }

    @Override
    public synchronized boolean containsKey(Object key) {
        return get(key) != null;
    }

    @Override
    public synchronized JMeterProperty put(String key, JMeterProperty value) {
        if (value == null) {
            // AbstractTestElement never stores null; a LinkedHashMap would, so refuse rather than differ silently.
            throw new NullPointerException("null property for " + key);
        }
        int i = layout.indexOf(key);
        if (i >= 0 && slots[i] != null) {
            JMeterProperty old = slots[i];
            slots[i] = value;
            return old;
        }
        if (added == null) {
            added = new LinkedHashMap<>(4);
        }
        return added.put(key, value);
    }

    @Override
    public synchronized JMeterProperty remove(Object key) {
        int i = layout.indexOf(key);
        if (i >= 0 && slots[i] != null) {
            JMeterProperty old = slots[i];
            slots[i] = null;
            return old;
        }
        if (added == null) {
            return null;
        }
        JMeterProperty old = added.remove(key);
        dropAddedIfEmpty();
        return old;
    }

    /**
     * Puts {@code own} wherever this map holds {@code shared} (the very object), keys and order unchanged: a user
     * took its own copy of a property it shared with the other users ({@link UserOwnedProperties}).
     */
    synchronized boolean swap(JMeterProperty shared, JMeterProperty own) {
        boolean found = false;
        for (int i = 0; i < slots.length; i++) {
            if (slots[i] == shared) {
                slots[i] = own;
                found = true;
            }
        }
        if (added != null) {
            for (Entry<String, JMeterProperty> e : added.entrySet()) {
                if (e.getValue() == shared) {
                    e.setValue(own);
                    found = true;
                }
            }
        }
        return found;
    }

    private void dropAddedIfEmpty() {
        if (added != null && added.isEmpty()) {
            added = null;
        }
    }

    @Override
    public synchronized void clear() {
        java.util.Arrays.fill(slots, null);
        added = null;
    }

    @Override
    public synchronized int size() {
        int n = added == null ? 0 : added.size();
        for (JMeterProperty p : slots) {
            if (p != null) {
                n++;
            }
        }
        return n;
    }

    @Override
    public synchronized boolean isEmpty() {
        return size() == 0;
    }

    @Override
    public boolean containsValue(Object value) {
        return values().contains(value);
    }

    @Override
    public void putAll(Map<? extends String, ? extends JMeterProperty> m) {
        m.forEach(this::put);
    }

    @Override
    public Set<String> keySet() {
        return new AbstractSet<>() {
            @Override
            public Iterator<String> iterator() {
                return parts(Entry::getKey);
            }

            @Override
            public int size() {
                return CompactPropertyMap.this.size();
            }
        };
    }

    @Override
    public Collection<JMeterProperty> values() {
        return new AbstractCollection<>() {
            @Override
            public Iterator<JMeterProperty> iterator() {
                return parts(Entry::getValue);
            }

            @Override
            public int size() {
                return CompactPropertyMap.this.size();
            }
        };
    }

    /** The entries' keys or values, in order; {@code remove()} removes the entry. */
    private <T> Iterator<T> parts(Function<Entry<String, JMeterProperty>, T> part) {
        Iterator<Entry<String, JMeterProperty>> entries = new Entries();
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return entries.hasNext();
            }

            @Override
            public T next() {
                return part.apply(entries.next());
            }

            @Override
            public void remove() {
                entries.remove();
            }
        };
    }

    /** As {@code AbstractMap}: equal to any map with the same entries. */
    @Override
    public boolean equals(Object o) {
        if (o == this) {
            return true;
        }
        if (!(o instanceof Map<?, ?> other) || other.size() != size()) {
            return false;
        }
        for (Entry<String, JMeterProperty> e : entrySet()) {
            if (!e.getValue().equals(other.get(e.getKey()))) {
                return false;
            }
        }
        return true;
    }

    /** As {@code AbstractMap}: the sum of the entries' hash codes. */
    @Override
    public int hashCode() {
        int h = 0;
        for (Entry<String, JMeterProperty> e : entrySet()) {
            h += e.hashCode();
        }
        return h;
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("{");
        for (Entry<String, JMeterProperty> e : entrySet()) {
            if (b.length() > 1) {
                b.append(", ");
            }
            b.append(e.getKey()).append('=').append(e.getValue());
        }
        return b.append('}').toString();
    }

    @Override
    public Set<Entry<String, JMeterProperty>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public Iterator<Entry<String, JMeterProperty>> iterator() {
                return new Entries();
            }

            @Override
            public int size() {
                return CompactPropertyMap.this.size();
            }
        };
    }

    /** Slots in layout order, then the added keys in their order; {@code remove()} as the map's own. */
    private final class Entries implements Iterator<Entry<String, JMeterProperty>> {
        private int slot = -1;
        private Iterator<Entry<String, JMeterProperty>> rest;
        private boolean inRest;
        private boolean removable;

        @Override
        public boolean hasNext() {
            if (!inRest && nextSlot() < slots.length) {
                return true;
            }
            return restIterator().hasNext();
        }

        private int nextSlot() {
            int i = slot + 1;
            while (i < slots.length && slots[i] == null) {
                i++;
            }
            return i;
        }

        private Iterator<Entry<String, JMeterProperty>> restIterator() {
            if (rest == null) {
                Map<String, JMeterProperty> a = added;
                rest = a == null ? java.util.Collections.emptyIterator() : a.entrySet().iterator();
            }
            return rest;
        }

        @Override
        public Entry<String, JMeterProperty> next() {
            if (!inRest) {
                int i = nextSlot();
                if (i < slots.length) {
                    slot = i;
                    removable = true;
                    return new SlotEntry(i);
                }
                inRest = true;
            }
            if (!restIterator().hasNext()) {
                throw new NoSuchElementException();
            }
            removable = true;
            return rest.next();
        }

        @Override
        public void remove() {
            if (!removable) {
                throw new IllegalStateException();
            }
            removable = false;
            synchronized (CompactPropertyMap.this) {
                if (inRest) {
                    rest.remove();
                    dropAddedIfEmpty();
                } else {
                    slots[slot] = null;
                }
            }
        }
    }

    private final class SlotEntry implements Entry<String, JMeterProperty> {
        private final int slot;

        SlotEntry(int slot) {
            this.slot = slot;
        }

        @Override
        public String getKey() {
            return layout.name(slot);
        }

        @Override
        public JMeterProperty getValue() {
            return slots[slot];
        }

        @Override
        public JMeterProperty setValue(JMeterProperty value) {
            JMeterProperty old = slots[slot];
            slots[slot] = value;
            return old;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Entry<?, ?> e && getKey().equals(e.getKey())
                    && java.util.Objects.equals(getValue(), e.getValue());
        }

        @Override
        public int hashCode() {
            return getKey().hashCode() ^ java.util.Objects.hashCode(getValue());
        }
    }
}
