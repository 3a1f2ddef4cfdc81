/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.threads;

import org.apache.jmeter.testelement.property.JMeterProperty;
import org.apache.jmeter.testelement.property.StringProperty;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The compact map must be indistinguishable from the LinkedHashMap JMeter keeps, whatever is done to it. */
class CompactPropertyMapTest {
    private static final List<String> LAYOUT = List.of("a", "b", "c", "d", "e", "f", "g", "h", "i", "j");
    private static final List<String> KEYS = List.of("a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "x", "y", "z");

    @Test
    void behavesAsLinkedHashMapUnderRandomEdits() {
        for (int layoutSize : new int[] {0, 3, 10}) {
            for (long seed = 0; seed < 200; seed++) {
                Random random = new Random(seed);
                List<String> names = LAYOUT.subList(0, layoutSize);
                LinkedHashMap<String, JMeterProperty> expected = new LinkedHashMap<>();
                JMeterProperty[] props = new JMeterProperty[names.size()];
                for (int i = 0; i < names.size(); i++) {
                    props[i] = new StringProperty(names.get(i), "v" + i);
                    expected.put(names.get(i), props[i]);
                }
                CompactPropertyMap actual = new CompactPropertyMap(new PropertyLayout(names), props);
                for (int step = 0; step < 60; step++) {
                    String key = KEYS.get(random.nextInt(KEYS.size()));
                    switch (random.nextInt(6)) {
                        case 0, 1 -> {
                            JMeterProperty p = new StringProperty(key, "s" + step);
                            assertEquals(expected.put(key, p), actual.put(key, p));
                        }
                        case 2 -> assertEquals(expected.remove(key), actual.remove(key));
                        case 3 -> removeWhileIterating(expected, actual, random.nextInt(3));
                        case 4 -> assertEquals(expected.get(key), actual.get(key));
                        default -> assertEquals(expected.containsKey(key), actual.containsKey(key));
                    }
                    String where = "seed " + seed + " step " + step;
                    assertEquals(List.copyOf(expected.entrySet()), List.copyOf(actual.entrySet()), where);
                    assertEquals(new ArrayList<>(expected.values()), new ArrayList<>(actual.values()), where);
                    assertEquals(expected.size(), actual.size(), where);
                    assertEquals(expected.isEmpty(), actual.isEmpty(), where);
                    assertEquals(expected, actual, where);
                    assertEquals(expected.hashCode(), actual.hashCode(), where);
                }
            }
        }
    }

    /** As recoverRunningVersion does: walk the entries, drop every {@code nth}. */
    private static void removeWhileIterating(Map<String, JMeterProperty> expected, Map<String, JMeterProperty> actual,
                                             int nth) {
        Iterator<Map.Entry<String, JMeterProperty>> e = expected.entrySet().iterator();
        Iterator<Map.Entry<String, JMeterProperty>> a = actual.entrySet().iterator();
        int i = 0;
        while (e.hasNext()) {
            assertEquals(true, a.hasNext());
            assertEquals(e.next(), a.next());
            if (nth > 0 && i++ % (nth + 1) == 0) {
                e.remove();
                a.remove();
            }
        }
        assertEquals(false, a.hasNext());
    }

    @Test
    void clearEmptiesLayoutAndAddedKeys() {
        CompactPropertyMap m = new CompactPropertyMap(new PropertyLayout(List.of("a")),
                new JMeterProperty[] {new StringProperty("a", "1")});
        m.put("x", new StringProperty("x", "2"));
        m.clear();
        assertEquals(0, m.size());
        m.put("a", new StringProperty("a", "3"));
        assertEquals("3", m.get("a").getStringValue());
    }

    @Test
    void refusesWhatJMeterNeverStores() {
        CompactPropertyMap m = new CompactPropertyMap(new PropertyLayout(List.of()), new JMeterProperty[0]);
        assertThrows(NullPointerException.class, () -> m.put("a", null));
        assertThrows(IllegalArgumentException.class, () -> new PropertyLayout(List.of("a", "a")));
    }
}
