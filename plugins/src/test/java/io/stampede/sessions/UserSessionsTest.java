/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sessions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/** The registry as two JMeter threads (or virtual users) use it, each with its own variables. */
class UserSessionsTest {

    /** A protocol's session that counts what the registry does to it. */
    static final class Counted implements UserSessions.Session {
        final String settings;
        int interrupts;
        int closes;

        Counted(String settings) {
            this.settings = settings;
        }

        @Override
        public void interrupt() {
            interrupts++;
        }

        @Override
        public void close() {
            closes++;
        }
    }

    /** Another protocol's. */
    static final class Other implements UserSessions.Session {
        @Override
        public void interrupt() {
        }

        @Override
        public void close() {
        }
    }

    @BeforeEach
    void freshThread() {
        JMeterContextService.getContext().setVariables(new JMeterVariables());
    }

    @Test
    void aNameKeepsItsSessionWhileTheSettingsHoldAndReplacesItWhenTheyChange() {
        UserSessions<Counted> u = UserSessions.of(Counted.class);
        Counted a = u.open("chat", s -> s.settings.equals("v1"), () -> new Counted("v1"));
        assertSame(a, u.open("chat", s -> s.settings.equals("v1"), () -> new Counted("v1")));
        assertSame(a, u.get("chat"));
        Counted b = u.open("chat", s -> s.settings.equals("v2"), () -> new Counted("v2"));
        assertNotSame(a, b);
        assertEquals(1, a.closes, "the replaced session is closed");
        assertEquals(0, b.closes);
        assertNull(u.get("other name"));
    }

    @Test
    void stopNowInterruptsTheSessionInUseFromAnotherThread() throws InterruptedException {
        UserSessions<Counted> u = UserSessions.of(Counted.class);
        assertFalse(u.interrupt(), "nothing in use yet");
        Counted a = u.open("a", s -> true, () -> new Counted(""));
        Counted b = u.open("b", s -> true, () -> new Counted(""));
        u.get("a");
        AtomicBoolean ended = new AtomicBoolean();
        Thread stopper = new Thread(() -> ended.set(u.interrupt()));
        stopper.start();
        stopper.join(10_000);
        assertTrue(ended.get());
        assertEquals(1, a.interrupts);
        assertEquals(0, b.interrupts);
    }

    @Test
    void theThreadsEndClosesEverySessionAndTheRegistryStaysUsable() {
        UserSessions<Counted> u = UserSessions.of(Counted.class);
        Counted a = u.open("a", s -> true, () -> new Counted(""));
        Counted b = u.open("b", s -> true, () -> new Counted(""));
        u.closeAll();
        assertEquals(1, a.closes);
        assertEquals(1, b.closes);
        assertNull(u.get("a"));
        assertFalse(u.interrupt(), "a closed session is not interrupted");
        assertNotSame(a, u.open("a", s -> true, () -> new Counted("")));
    }

    @Test
    void eachThreadAndEachProtocolHasItsOwn() throws InterruptedException {
        UserSessions<Counted> mine = UserSessions.of(Counted.class);
        mine.open("a", s -> true, () -> new Counted(""));
        assertSame(mine, UserSessions.of(Counted.class));
        assertNotSame(UserSessions.of(Other.class), UserSessions.of(Counted.class));
        Object kept = UserSessions.kept(StringBuilder.class, StringBuilder::new);
        assertSame(kept, UserSessions.kept(StringBuilder.class, StringBuilder::new));

        AtomicReference<Object> seen = new AtomicReference<>("not run");
        AtomicReference<Object> keptThere = new AtomicReference<>();
        Thread other = new Thread(() -> {
            seen.set(UserSessions.of(Counted.class).get("a"));
            keptThere.set(UserSessions.kept(StringBuilder.class, StringBuilder::new));
        });
        other.start();
        other.join(10_000);
        assertNull(seen.get(), "another thread does not see this thread's sessions");
        assertNotSame(kept, keptThere.get());
    }
}
