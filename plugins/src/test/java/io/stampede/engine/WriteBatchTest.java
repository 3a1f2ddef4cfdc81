/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The owner's batch of connections with requests to write: each written once per flush, in order. */
class WriteBatchTest {

    @Test
    void everyPendingConnectionIsWrittenOnceInOrderAndTheBatchEmpties() {
        WriteBatch batch = new WriteBatch();
        List<Integer> written = new ArrayList<>();
        for (int i = 0; i < 100; i++) { // beyond the initial capacity
            int id = i;
            batch.add(() -> written.add(id));
        }
        batch.flush();
        assertEquals(100, written.size());
        for (int i = 0; i < 100; i++) {
            assertEquals(i, written.get(i));
        }
        batch.flush();
        assertEquals(100, written.size(), "a second flush writes nothing again");
    }

    @Test
    void aConnectionAddedWhileFlushingIsWrittenInTheSameFlush() {
        WriteBatch batch = new WriteBatch();
        List<String> written = new ArrayList<>();
        batch.add(() -> {
            written.add("first");
            batch.add(() -> written.add("added meanwhile"));
        });
        batch.flush();
        assertEquals(List.of("first", "added meanwhile"), written);
        batch.flush();
        assertEquals(2, written.size());
    }
}
