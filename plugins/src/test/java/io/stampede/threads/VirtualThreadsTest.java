/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.threads;

import org.junit.jupiter.api.Test;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Runs on whatever JVM the build uses: Java 17 must get the refusal, 21+ real virtual threads. */
class VirtualThreadsTest {
    @Test
    void refusesBelowJava21OrMakesVirtualThreads() throws Exception {
        int feature = Runtime.version().feature();
        if (feature < VirtualThreads.MINIMUM_JAVA) {
            UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                    () -> VirtualThreads.factory("My group"));
            assertTrue(e.getMessage().startsWith("My group needs Java 21 or newer (virtual threads); found "
                    + feature + " ("), e.getMessage());
            assertTrue(e.getMessage().contains("stampede run --java"), e.getMessage());
            return;
        }
        ThreadFactory f = VirtualThreads.factory("My group");
        AtomicReference<Boolean> virtual = new AtomicReference<>();
        Thread t = f.newThread(() -> virtual.set(isVirtual(Thread.currentThread())));
        t.start();
        t.join();
        assertEquals(Boolean.TRUE, virtual.get());
    }

    private static boolean isVirtual(Thread t) {
        try {
            return (Boolean) Thread.class.getMethod("isVirtual").invoke(t);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }
}
