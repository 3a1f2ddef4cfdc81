/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sessions;

import org.apache.jmeter.threads.JMeterContext;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The sessions of one protocol that one JMeter thread (or virtual user) keeps open across its samples and
 * iterations, by name. The registry lives in the thread's JMeter variables, so a virtual user's sessions are its
 * own and die with it, as the HTTP samplers' connections do. Only the owning thread touches it, except
 * {@link #interrupt()} (stop test now).
 *
 * @param <S> what the protocol keeps under one name: a session, or a group of sessions taken in turn
 */
public final class UserSessions<S extends UserSessions.Session> {
    /** What a protocol keeps under one name. */
    public interface Session {
        /** Any thread (stop test now): the sample waiting on it ends at once. */
        void interrupt();

        /** Closes it: the thread ended, or its name was opened again with other settings. */
        void close();
    }

    private final Class<S> type;
    private final Map<String, S> byName = new HashMap<>(4);
    /** The last one a sample used, which stop-now interrupts. */
    private volatile S busy;

    private UserSessions(Class<S> type) {
        this.type = type;
    }

    /**
     * The current thread's sessions of {@code type}, made at first use. Every sample asks, so the lookup is one
     * variables read under the type's own name, with nothing built on the way.
     */
    public static <S extends Session> UserSessions<S> of(Class<S> type) {
        JMeterVariables vars = variables();
        if (vars.getObject(type.getName()) instanceof UserSessions<?> u && u.type == type) {
            @SuppressWarnings("unchecked") // a registry of this very type
            UserSessions<S> typed = (UserSessions<S>) u;
            return typed;
        }
        UserSessions<S> made = new UserSessions<>(type);
        vars.putObject(type.getName(), made);
        return made;
    }

    /**
     * The object the current thread keeps under {@code type}'s name across samples and iterations, made at first
     * use. An object that does not fit (none yet) is replaced by a new one.
     */
    public static <T> T kept(Class<T> type, Supplier<? extends T> make) {
        JMeterVariables vars = variables();
        Object o = vars.getObject(type.getName());
        if (type.isInstance(o)) {
            return type.cast(o);
        }
        T made = make.get();
        vars.putObject(type.getName(), made);
        return made;
    }

    /** The thread's variables, not its sampler context: JMeter clears the sampler context after every sample. */
    private static JMeterVariables variables() {
        JMeterContext context = JMeterContextService.getContext();
        JMeterVariables vars = context.getVariables();
        if (vars == null) {
            // Only outside a JMeter thread (a sampler driven directly); JMeterThread always sets them.
            vars = new JMeterVariables();
            context.setVariables(vars);
        }
        return vars;
    }

    /** The session of this name, or null when none was opened. */
    public S get(String name) {
        S s = byName.get(name);
        busy = s;
        return s;
    }

    /**
     * The session of this name: the one kept while {@code keep} accepts it, else a new one from {@code make} (the
     * one it replaces is closed).
     */
    public S open(String name, Predicate<? super S> keep, Supplier<? extends S> make) {
        S s = byName.get(name);
        if (s == null || !keep.test(s)) {
            if (s != null) {
                s.close();
            }
            s = make.get();
            byName.put(name, s);
        }
        busy = s;
        return s;
    }

    /** Any thread (stop test now): the sample in progress ends at once; whether there was one to end. */
    public boolean interrupt() {
        S s = busy;
        if (s != null) {
            s.interrupt();
        }
        return s != null;
    }

    /** Closes every session; the registry stays usable (a later sample on this thread opens new ones). */
    public void closeAll() {
        busy = null;
        for (S s : new ArrayList<>(byName.values())) {
            s.close();
        }
        byName.clear();
    }
}
