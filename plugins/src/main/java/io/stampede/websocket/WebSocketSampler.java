/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.websocket;

import io.stampede.engine.Failures;
import io.stampede.engine.EngineTestListener;
import io.stampede.engine.websocket.WebSocketCall;
import io.stampede.engine.websocket.WebSocketClosedException;
import io.stampede.sampler.PropertyNumbers;
import io.stampede.sessions.UserSessions;
import org.apache.jmeter.samplers.AbstractSampler;
import org.apache.jmeter.samplers.Entry;
import org.apache.jmeter.samplers.Interruptible;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testelement.ThreadListener;

import java.net.UnknownHostException;

/**
 * What the five WebSocket samplers share: the session name, the thread's sessions, the result filler, and the thread
 * and test listeners. A subclass does one step of a session (open, send, send and wait for a reply, wait, close) on
 * the sessions its thread holds under that name. Netty state is transient, so elements serialise for jmeter-server.
 */
public abstract class WebSocketSampler extends AbstractSampler implements Interruptible, ThreadListener,
        EngineTestListener {
    private static final long serialVersionUID = 1L;

    /** The session's name within the thread; samplers with the same name use the same session(s). */
    public static final String SESSION = "websocket.session";
    public static final String MESSAGE = "websocket.message";
    /** text (default) or binary (the message written as hex digits). */
    public static final String MESSAGE_TYPE = "websocket.message_type";
    /** any, contains, regex or json. */
    public static final String MATCH = "websocket.match";
    public static final String MATCH_EXPRESSION = "websocket.match_expression";
    public static final String MATCH_VALUE = "websocket.match_value";
    /** Milliseconds a message sample (or the close) may take. */
    public static final String TIMEOUT = "websocket.timeout";
    /** Messages that arrived with nobody waiting become sub-results of the next sample that waits. */
    public static final String KEEP_UNSOLICITED = "websocket.unsolicited_subresults";
    public static final String DEFAULT_SESSION = "default";
    static final int DEFAULT_TIMEOUT = 10000;

    private transient volatile UserSessions<SessionGroup> sessions;
    private transient WebSocketResults results;

    /** One step on the thread's sessions; {@code res} carries the label. */
    abstract SampleResult sample(UserSessions<SessionGroup> ts, SampleResult res) throws UnknownHostException;

    @Override
    public SampleResult sample(Entry entry) {
        SampleResult res = new SampleResult();
        res.setSampleLabel(getName());
        res.setDataType(SampleResult.TEXT);
        UserSessions<SessionGroup> ts = UserSessions.of(SessionGroup.class);
        sessions = ts;
        try {
            return sample(ts, res);
        } catch (IllegalArgumentException | IllegalStateException | UnknownHostException e) {
            return results().notStarted(res, e);
        }
    }

    final WebSocketResults results() {
        WebSocketResults r = results;
        if (r == null) {
            r = new WebSocketResults();
            results = r;
        }
        return r;
    }

    final String sessionName() {
        String n = getPropertyAsString(SESSION).trim();
        return n.isEmpty() ? DEFAULT_SESSION : n;
    }

    /** The thread's open sessions of this sampler's name; fails the sample when none were opened. */
    final SessionGroup openedGroup(UserSessions<SessionGroup> ts) {
        SessionGroup g = ts.get(sessionName());
        if (g == null) {
            throw new IllegalStateException("No WebSocket session '" + sessionName() + "' in this thread; put a "
                    + "WebSocket Open sampler with " + SESSION + " '" + sessionName() + "' before this one");
        }
        return g;
    }

    final int timeoutMillis() {
        return PropertyNumbers.whole(TIMEOUT, getPropertyAsString(TIMEOUT), DEFAULT_TIMEOUT, 1,
                Integer.MAX_VALUE / 1000);
    }

    /** Fills {@code res} from a completed call, or as interrupted when there is none. */
    final SampleResult filled(SampleResult res, WebSocketCall c, SessionGroup g, String samplerData) {
        if (c == null) {
            return results().notStarted(res, Failures.interrupted());
        }
        results().fill(res, c, g.settings().url(), samplerData);
        return res;
    }

    /** A failure when the session is closed, for samplers that need it open. */
    static WebSocketClosedException notOpen() {
        return new WebSocketClosedException(WebSocketClosedException.ABNORMAL, "(session not open)");
    }

    @Override
    public boolean interrupt() {
        UserSessions<SessionGroup> ts = sessions;
        return ts != null && ts.interrupt();
    }

    @Override
    public void threadStarted() {
        // Sessions open at their open sampler.
    }

    @Override
    public void threadFinished() {
        UserSessions.of(SessionGroup.class).closeAll();
        sessions = null;
    }

    public void setSession(String name) {
        setProperty(SESSION, name);
    }
}
