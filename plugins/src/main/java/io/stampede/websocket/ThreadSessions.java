/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.websocket;

import org.apache.jmeter.threads.JMeterContext;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;

import java.util.HashMap;
import java.util.Map;

/**
 * The WebSocket sessions of one JMeter thread (or virtual user) by name, kept in its JMeterVariables so they live
 * across iterations until closed and die with the thread, as the HTTP samplers' connections do. Only the owning
 * thread touches it, except {@link #interrupt()}.
 */
final class ThreadSessions {
    private static final String KEY = ThreadSessions.class.getName();

    private final Map<String, SessionGroup> byName = new HashMap<>(4);
    private volatile SessionGroup busy;

    static ThreadSessions ofCurrentThread() {
        JMeterContext context = JMeterContextService.getContext();
        JMeterVariables vars = context.getVariables();
        if (vars == null) {
            vars = new JMeterVariables();
            context.setVariables(vars);
        }
        if (vars.getObject(KEY) instanceof ThreadSessions ts) {
            return ts;
        }
        ThreadSessions ts = new ThreadSessions();
        vars.putObject(KEY, ts);
        return ts;
    }

    /** The sessions of this name, or null when none were opened. */
    SessionGroup get(String name) {
        SessionGroup g = byName.get(name);
        busy = g;
        return g;
    }

    /** The sessions of this name for these settings: new when there are none or the settings changed. */
    SessionGroup open(String name, SessionSettings settings, int firstSource) {
        SessionGroup g = byName.get(name);
        if (g == null || !g.settings().equals(settings)) {
            if (g != null) {
                g.closeAll();
            }
            g = new SessionGroup(settings, firstSource);
            byName.put(name, g);
        }
        busy = g;
        return g;
    }

    /** Any thread (stop test now): the sample in progress ends at once. */
    boolean interrupt() {
        SessionGroup g = busy;
        if (g != null) {
            g.interrupt();
        }
        return g != null;
    }

    void closeAll() {
        for (SessionGroup g : byName.values()) {
            g.closeAll();
        }
        byName.clear();
        busy = null;
    }
}
