/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sampler;

import io.stampede.engine.Engine;
import io.stampede.engine.http1.Http1Connection;
import io.stampede.engine.http1.ThreadIoConnection;
import io.stampede.engine.http1.ParkingCompletion;
import org.apache.jmeter.threads.JMeterContext;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;

import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;

/**
 * The classic mode's connections of one JMeter thread: one per target, shared by all Stampede samplers of that
 * thread and kept across thread-group iterations (like a browser user keeps its connections), with the one
 * {@link ParkingCompletion} the thread waits on. Lives in the thread's JMeterVariables, so it dies with the thread;
 * only the owning thread touches it, except {@link #interrupt()}.
 */
final class ThreadConnections {
    private static final String KEY = ThreadConnections.class.getName();

    private final Map<Target, Http1Connection> byTarget = new HashMap<>(4);
    /** Plain-TCP connections the thread reads and writes itself (stampede.io_mode auto or thread). */
    private final Map<Target, ThreadIoConnection> ownIo = new HashMap<>(4);
    /** Read when the thread's connections are made, and again when they are all closed. */
    private boolean threadIo = IoMode.fromJMeterProperties() != IoMode.ENGINE;
    private Target lastOwnTarget;
    private ThreadIoConnection lastOwn;
    private volatile ThreadIoConnection inFlight;
    private final ParkingCompletion completion = new ParkingCompletion();
    private Target lastTarget;
    private Http1Connection last;

    static ThreadConnections ofCurrentThread() {
        // The thread's variables, not its sampler context: JMeter clears the sampler context after every sample.
        JMeterContext context = JMeterContextService.getContext();
        JMeterVariables vars = context.getVariables();
        if (vars == null) {
            // Only outside a JMeter thread (a sampler driven directly); JMeterThread always sets them.
            vars = new JMeterVariables();
            context.setVariables(vars);
        }
        if (vars.getObject(KEY) instanceof ThreadConnections tc) {
            return tc;
        }
        ThreadConnections tc = new ThreadConnections();
        vars.putObject(KEY, tc);
        return tc;
    }

    ParkingCompletion completion() {
        return completion;
    }

    /**
     * The thread's connection to {@code target}, made when there is none or the engine it was made on has stopped
     * (a test ended). It (re)connects by itself when its request goes out.
     */
    Http1Connection get(Target target, int connectTimeout) throws UnknownHostException {
        Http1Connection c = last;
        if (c == null || target != lastTarget && !target.equals(lastTarget)) {
            c = byTarget.get(target);
        }
        if (c == null || !c.usable()) {
            Engine engine = Engine.get();
            c = new Http1Connection(engine, engine.nextLoop(), null, null, target.resolve(), null, connectTimeout, 1,
                    target.tls());
            Http1Connection old = byTarget.put(target, c);
            if (old != null) {
                old.close();
            }
        }
        lastTarget = target;
        last = c;
        return c;
    }

    /**
     * Whether this thread does the I/O to {@code target} itself: plain TCP unless stampede.io_mode is engine. TLS
     * stays on the engine's loops (its handshake and records are Netty's).
     */
    boolean ownsIo(Target target) {
        return threadIo && !target.secure();
    }

    /** The thread's own-I/O connection to a plain {@code target}; it connects when its first request goes out. */
    ThreadIoConnection own(Target target) throws UnknownHostException {
        ThreadIoConnection c = lastOwn;
        if (c == null || target != lastOwnTarget && !target.equals(lastOwnTarget)) {
            c = ownIo.get(target);
        }
        if (c == null || !c.usable()) {
            if (c != null) {
                c.closeChannel();
            }
            c = new ThreadIoConnection(Engine.get(), target.resolve());
            ownIo.put(target, c);
        }
        lastOwnTarget = target;
        lastOwn = c;
        inFlight = c;
        return c;
    }

    /** Any thread (stop test now): the thread's send in progress ends at once. */
    void interrupt() {
        completion.interrupt();
        ThreadIoConnection c = inFlight;
        if (c != null) {
            c.interrupt();
        }
    }

    /** Closes every connection; the holder stays usable (a later sample on this thread opens new ones). */
    void closeAll() {
        for (Http1Connection c : new ArrayList<>(byTarget.values())) {
            c.close();
        }
        byTarget.clear();
        lastTarget = null;
        last = null;
        for (ThreadIoConnection c : ownIo.values()) {
            c.closeChannel();
        }
        ownIo.clear();
        lastOwnTarget = null;
        lastOwn = null;
        inFlight = null;
        threadIo = IoMode.fromJMeterProperties() != IoMode.ENGINE;
    }
}
